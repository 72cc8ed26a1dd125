/**
 * The web console (docs/contract.md §14) as the gateway serves it: `/` redirects to `/console/`, the
 * built files of `@parley/console` are answered from memory (`static-files.ts`), and any other path
 * under `/console/` gets the console's `index.html`, so that a deep link (`/console/leads`) or a
 * reload lands on the right screen (the console routes in the browser). Content-hashed files under
 * `assets/` are cached for a year; `index.html` is revalidated by its ETag and carries the
 * Content-Security-Policy below. Like `/docs`, these routes are not authenticated (the console signs
 * in through the API) and count against the general rate limit per client IP (§3): `count` runs
 * first.
 */
import { gatewayRoutes } from "@parley/contracts"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import {
  IMMUTABLE,
  loadStaticFiles,
  REVALIDATE,
  type StaticFile,
  sendStaticFile,
  webPackageDist,
} from "./static-files.ts"

/**
 * Everything the console loads comes from Parley itself, and no script runs but its own files: no
 * inline script or style, no `eval`, no frame, no form posting elsewhere, and (Trusted Types) no
 * string ever assigned to an HTML sink — the console renders server and visitor text as text only.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ")

const PAGE_HEADERS = {
  "content-security-policy": CONSOLE_CSP,
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
} as const

export interface ConsoleRoutesOptions {
  /** The console's build (`loadStaticFiles(webPackageDist("@parley/console"))`), keyed by path. */
  readonly files: ReadonlyMap<string, StaticFile>
  /** Counts the request against the rate limits (sets `RateLimit-*`; throws the 429). */
  readonly count: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
}

const notFound = (reply: FastifyReply) => reply.code(404).send({ error: "Not found", code: "not_found" })

export const registerConsoleRoutes = (app: FastifyInstance, options: ConsoleRoutesOptions): void => {
  const { files } = options
  const index = files.get("index.html")
  if (index === undefined) throw new Error("the console's build has no index.html")
  const onRequest = options.count
  const page = (request: FastifyRequest, reply: FastifyReply) =>
    sendStaticFile(request, reply, index, REVALIDATE, PAGE_HEADERS)

  const { consoleEntry, consoleBare, consolePage, consoleFiles } = gatewayRoutes.routes
  app.get(consoleEntry.path, { onRequest }, (_request, reply) => reply.redirect(consolePage.path, 302))
  app.get(consoleBare.path, { onRequest }, (_request, reply) => reply.redirect(consolePage.path, 301))
  app.get(consolePage.path, { onRequest }, page)
  app.get<{ Params: { "*": string } }>(consoleFiles.path, { onRequest }, (request, reply) => {
    const path = request.params["*"]
    if (path === "index.html") return page(request, reply)
    const file = files.get(path)
    if (file !== undefined) {
      return sendStaticFile(request, reply, file, path.startsWith("assets/") ? IMMUTABLE : REVALIDATE)
    }
    // A missing file (an old hashed asset, a typo) is a 404, not the page: a script tag must not
    // get HTML. Any other path is a screen of the console.
    if (path.startsWith("assets/") || /\.[a-z0-9]+$/i.test(path)) return notFound(reply)
    return page(request, reply)
  })
}

/**
 * Reads the console's build into memory, or `undefined` (logged) when there is none — a gateway
 * run from sources before any build, say: the API is served all the same, and `/console/` is 404.
 */
export const loadConsoleFiles = async (
  dir: string | undefined,
  logger: { warn(message: string): void },
): Promise<ReadonlyMap<string, StaticFile> | undefined> => {
  let folder = dir
  try {
    folder ??= webPackageDist("@parley/console")
    const files = await loadStaticFiles(folder)
    if (files.has("index.html")) return files
  } catch {
    // reported below
  }
  logger.warn(
    `console: no build found${folder === undefined ? "" : ` in ${folder}`}; /console/ is not served (npm run build builds it)`,
  )
  return undefined
}
