/**
 * The chat widget's files (docs/contract.md §15), served by the gateway from `@parley/widget`'s build:
 *
 * - `GET /widget.js`, the loader every host page embeds. Its URL is fixed, so it is cached for five
 *   minutes and then revalidated with its ETag: a new release reaches every site within minutes.
 * - `GET /widget/<name>-<hash>.js`, the panel and its chunks, named by their content hash and cached
 *   for a year (`immutable`); only the loader names them.
 *
 * Host pages fetch these from their own origin: the panel by `import()`, which is a CORS request, so
 * both answer `Access-Control-Allow-Origin: *` (they are public files, fetched without credentials),
 * and `Cross-Origin-Resource-Policy: cross-origin`, so that a host page isolated with COEP
 * `require-corp` may still load them. Neither is authenticated; both count against the general rate
 * limit per client IP, as every unauthenticated request does (§3).
 */
import { gatewayRoutes } from "@parley/contracts"
import type { ParleyLogger } from "@parley/platform"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { NoSuchRoute } from "../errors.ts"
import { toApiError } from "../http/errors.ts"
import { IMMUTABLE, loadStaticFiles, type StaticFile, sendStaticFile, webPackageDist } from "./static-files.ts"

/** The loader's `Cache-Control`: short, since its URL never changes; then a cheap 304 by ETag. */
export const LOADER_CACHE = "public, max-age=300"

const CROSS_ORIGIN: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "cross-origin-resource-policy": "cross-origin",
}

export interface WidgetRoutesOptions {
  /** The widget's build output; by default `@parley/widget`'s `dist/`. */
  readonly dir?: string | undefined
  /** The build, already being read (`loadWidgetFiles`); else it is read from `dir`. */
  readonly files?: Promise<ReadonlyMap<string, StaticFile>>
  readonly logger: ParleyLogger
  /** Counts the request against the rate limits (sets `RateLimit-*`; throws the 429). */
  readonly count: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
}

/**
 * `@parley/widget` is found by name, not declared as the gateway's dependency: the widget's browser
 * tests start the whole of Parley (`@parley/standalone`), so declaring it would make a package cycle.
 * npm links every workspace under `node_modules/@parley/`, in the repository and the image alike.
 */
const widgetDist = (): string | undefined => {
  try {
    return webPackageDist("@parley/widget")
  } catch {
    return undefined
  }
}

const readBuild = async (dir: string | undefined, logger: ParleyLogger): Promise<ReadonlyMap<string, StaticFile>> => {
  try {
    const files = dir === undefined ? undefined : await loadStaticFiles(dir)
    if (files?.has("widget.js")) return files
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
  }
  // The API works without the widget; say loudly why /widget.js answers 404.
  logger.warn(`widget: no build in ${dir}, /widget.js answers 404 (run npm run build -w @parley/widget)`)
  return new Map()
}

/** Reads the widget's build (by default `@parley/widget`'s `dist/`); empty, and logged, when there is none. */
export const loadWidgetFiles = (
  dir: string | undefined,
  logger: ParleyLogger,
): Promise<ReadonlyMap<string, StaticFile>> => readBuild(dir ?? widgetDist(), logger)

export const registerWidgetRoutes = async (app: FastifyInstance, options: WidgetRoutesOptions): Promise<void> => {
  const files = await (options.files ?? loadWidgetFiles(options.dir, options.logger))
  const onRequest = options.count

  const { widgetLoader, widgetModule } = gatewayRoutes.routes
  app.get(widgetLoader.path, { onRequest }, (request, reply) => {
    const loader = files.get("widget.js")
    if (loader === undefined) throw toApiError(new NoSuchRoute())
    return sendStaticFile(request, reply, loader, LOADER_CACHE, CROSS_ORIGIN)
  })

  app.get<{ Params: { "*": string } }>(widgetModule.path, { onRequest }, (request, reply) => {
    const file = files.get(`widget/${request.params["*"]}`)
    if (file === undefined) throw toApiError(new NoSuchRoute())
    return sendStaticFile(request, reply, file, IMMUTABLE, CROSS_ORIGIN)
  })
}
