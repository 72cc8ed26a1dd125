import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { cycles, importGraph, valuesImportedFrom } from "./import-graph.ts"

/**
 * Every service is built to the one skeleton of the root README's map ("Map", "One skeleton"):
 * `src/app.ts`, `src/main.ts`, `src/config.ts`, `src/bus/`, and for a service that answers HTTP,
 * `src/errors.ts` (its tagged domain errors) with `src/http/errors.ts` (the one exhaustive mapping
 * of them to docs/contract.md's `{ error, code }`); everything else in a folder named after a
 * domain feature or an outside party, never after a layer. No service imports another, a service's
 * modules import each other without a cycle, and only `config.ts` reads the environment.
 * `standalone` only composes the others and is not held to it.
 */

const SERVICES_DIR = new URL("../../services/", import.meta.url)
const services = readdirSync(SERVICES_DIR)
  .filter((name) => statSync(new URL(name, SERVICES_DIR)).isDirectory() && name !== "standalone")
  .sort()

/** The dispatcher answers no route (only its health and metrics probes): it has no `http/`. */
const ANSWERS_NO_ROUTES = new Set(["dispatcher"])

const TOP_LEVEL_FILES = new Set(["app.ts", "main.ts", "config.ts", "errors.ts", "metrics.ts"])
/** Folders named after a layer, not a feature: where "go to definition" stops after one hop. */
const LAYER_FOLDERS = new Set([
  "domain",
  "repositories",
  "services",
  "consumers",
  "routes",
  "jobs",
  "utils",
  "helpers",
  "lib",
  "common",
  "shared",
])

/** `@parley/platform`'s constructors of an HTTP error answer. */
const HTTP_ERROR_CONSTRUCTORS = new Set([
  "ApiError",
  "invalidRequest",
  "unauthorized",
  "forbidden",
  "notFound",
  "conflict",
  "outsideServiceWindow",
  "payloadTooLarge",
  "unsupportedMediaType",
  "rateLimited",
  "unavailable",
])

const packageNames = readdirSync(SERVICES_DIR)
  .filter((name) => existsSync(new URL(`${name}/package.json`, SERVICES_DIR)))
  .map(
    (name) =>
      (JSON.parse(readFileSync(new URL(`${name}/package.json`, SERVICES_DIR), "utf8")) as { name: string }).name,
  )

const declaredTags = (text: string): Array<string> =>
  [...text.matchAll(/Tagged(?:Error|Class)(?:<\w+>\(\))?\(\s*"(\w+)"/g)].map((match) => match[1] ?? "")

/** What is wrong with a service's mapping module, given its domain errors' module. */
export const mappingProblems = (errors: string, mapping: string): Array<string> => {
  const problems: Array<string> = []
  if (!/from\s+"\.\.\/errors\.ts"/.test(mapping)) problems.push("does not take its errors from ../errors.ts")
  if (!/switch\s*\(\s*error\._tag\s*\)/.test(mapping)) problems.push("has no switch over error._tag")
  if (!/\bsatisfies never\b/.test(mapping)) problems.push("has no `satisfies never` (exhaustiveness at compile time)")
  for (const tag of declaredTags(errors)) if (!mapping.includes(`case "${tag}"`)) problems.push(`does not map ${tag}`)
  return problems
}

/** The `Context.Service` classes a module declares that have no static `layer`. */
export const servicesWithoutLayer = (text: string): Array<string> => {
  const found: Array<string> = []
  for (const match of text.matchAll(/class (\w+) extends Context\.Service</g)) {
    const start = match.index ?? 0
    const next = text.slice(start + 1).search(/\n(?:export )?(?:class|const|function|interface|type) /)
    const body = next === -1 ? text.slice(start) : text.slice(start, start + 1 + next)
    if (!/\bstatic (?:readonly )?layer\b/.test(body)) found.push(match[1] ?? "")
  }
  return found
}

/** Exported components built by a closure or gathered in a bag, outside any Layer. */
export const closureComponents = (text: string): Array<string> => [
  ...[...text.matchAll(/export const (make\w*Store)\b/g)].map((match) => match[1] ?? ""),
  ...[...text.matchAll(/export (?:class|interface|type|const) (\w*Resources)\b/g)].map((match) => match[1] ?? ""),
]

/** Names app.ts imports as values from the service's own modules (`./…`). */
const ownValues = (app: string): Array<string> =>
  [...app.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"\.\/[^"]+"/g)]
    .filter((match) => match[1] === undefined)
    .flatMap((match) =>
      (match[2] ?? "")
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== "" && !part.startsWith("type "))
        .map((part) => (part.split(/\s+as\s+/).pop() ?? part).trim()),
    )

/** The service's own Layers app.ts composes (`Name.layer`). */
export const ownLayersComposed = (app: string): Array<string> =>
  ownValues(app).filter((name) => new RegExp(`\\b${name}\\.layer\\b`).test(app))

/** Own components app.ts builds by hand (`new X(`, `makeX(`) instead of composing their Layers. */
export const componentsBuiltByHand = (app: string): Array<string> =>
  ownValues(app).filter(
    (name) =>
      new RegExp(`\\bnew ${name}\\(`).test(app) || (/^make[A-Z]/.test(name) && new RegExp(`\\b${name}\\(`).test(app)),
  )

/** Folders (relative, ending in `/`) under `root` with a README.md. */
const readmes = (root: URL, dir = ""): Array<string> =>
  readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? [
          ...(existsSync(new URL(`${dir}${entry.name}/README.md`, root)) ? [`${dir}${entry.name}/`] : []),
          ...readmes(root, `${dir}${entry.name}/`),
        ]
      : [],
  )

/** What is wrong with a hot-path folder: it must give a measurement and sit behind exactly one service. */
export const hotPathProblems = (
  folder: string,
  readme: string,
  files: ReadonlyArray<string>,
  textOf: (file: string) => string,
): Array<string> => {
  const problems: Array<string> = []
  if (!/\d[\d\s.,]*\s*(?:µs|ms|\/s|×)/.test(readme)) problems.push(`${folder}README.md gives no measurement`)
  const services = files
    .filter((file) => file.startsWith(folder))
    .flatMap((file) => [...textOf(file).matchAll(/class (\w+) extends Context\.Service</g)].map((match) => match[1]))
  if (services.length !== 1) problems.push(`${folder} is behind ${services.length} services, not one`)
  return problems
}

describe("every service", () => {
  it("is one of the six the map names", () => {
    expect(services).toEqual(["assistant", "dispatcher", "gateway", "identity", "messaging", "webhook-registry"])
  })

  describe.each(services)("%s", (service) => {
    const root = new URL(`${service}/src/`, SERVICES_DIR)
    const { files, importsOf, graph, textOf } = importGraph(root)
    const exists = (path: string) => existsSync(new URL(path, root))
    const answersRoutes = !ANSWERS_NO_ROUTES.has(service)

    it("has the skeleton's files: app.ts, main.ts, config.ts, bus/ (and errors.ts, http/errors.ts)", () => {
      const required = ["app.ts", "main.ts", "config.ts", "bus/"]
      if (answersRoutes) required.push("errors.ts", "http/", "http/errors.ts")
      expect(required.filter((path) => !exists(path))).toEqual([])
    })

    it("keeps every other module in a folder named after a feature or an outside party, not a layer", () => {
      const entries = readdirSync(root, { withFileTypes: true })
      const looseFiles = entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith(".test.ts") && !TOP_LEVEL_FILES.has(entry.name))
        .map((entry) => entry.name)
      expect(looseFiles).toEqual([])
      const layers = entries
        .filter((entry) => entry.isDirectory() && LAYER_FOLDERS.has(entry.name))
        .map((entry) => entry.name)
      expect(layers).toEqual([])
    })

    it("maps its domain errors to HTTP in http/errors.ts, exhaustively (or answers no route at all)", () => {
      if (answersRoutes) expect(mappingProblems(textOf("errors.ts"), textOf("http/errors.ts"))).toEqual([])
      else expect(files.filter((file) => file.startsWith("http/"))).toEqual([])
    })

    it("builds HTTP error answers in http/errors.ts only", () => {
      const elsewhere = files
        .filter((file) => file !== "http/errors.ts")
        .flatMap((file) =>
          valuesImportedFrom(textOf(file), "@parley/platform")
            .filter((name) => HTTP_ERROR_CONSTRUCTORS.has(name))
            .map((name) => `${file}: ${name}`),
        )
      expect(elsewhere).toEqual([])
    })

    it("imports no other service", () => {
      const others = packageNames.filter((name) => name !== `@parley/${service}`)
      const byPackage = files.flatMap((file) =>
        importsOf(file)
          .filter((specifier) => others.some((name) => specifier === name || specifier.startsWith(`${name}/`)))
          .map((specifier) => `${file} → ${specifier}`),
      )
      const byPath = files.flatMap((file) =>
        (graph.get(file) ?? []).filter((target) => target.startsWith("../../")).map((target) => `${file} → ${target}`),
      )
      expect([...byPackage, ...byPath]).toEqual([])
    })

    it("has no import cycle", () => {
      expect(files.length).toBeGreaterThan(5)
      expect(cycles(files, graph)).toEqual([])
    })

    it("declares each of its services (a Context.Service) with the Layer that provides it", () => {
      const unprovided = files.flatMap((file) => servicesWithoutLayer(textOf(file)).map((name) => `${file}: ${name}`))
      expect(unprovided).toEqual([])
    })

    it("exports no component built by a closure or held in a bag outside a Layer (make*Store, *Resources)", () => {
      const found = files.flatMap((file) => closureComponents(textOf(file)).map((name) => `${file}: ${name}`))
      expect(found).toEqual([])
    })

    it("composes its services in app.ts as Layers: app.ts builds none of its own components itself", () => {
      const app = textOf("app.ts")
      expect(ownLayersComposed(app)).not.toEqual([])
      expect(componentsBuiltByHand(app)).toEqual([])
    })

    it("keeps a hot path of plain code in a folder whose README says so, with its measurement, behind one service", () => {
      const problems = readmes(root)
        .filter((folder) => /plain code for speed/i.test(readFileSync(new URL(`${folder}README.md`, root), "utf8")))
        .flatMap((folder) =>
          hotPathProblems(folder, readFileSync(new URL(`${folder}README.md`, root), "utf8"), files, textOf),
        )
      expect(problems).toEqual([])
    })

    it("reads process.env only in config.ts", () => {
      expect(files.filter((file) => file !== "config.ts" && /\bprocess\.env\b/.test(textOf(file)))).toEqual([])
    })
  })
})

describe("the checks themselves", () => {
  it("find a cycle when there is one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["a.ts"]],
      ["c.ts", ["a.ts"]],
    ])
    expect(cycles(["a.ts", "b.ts", "c.ts"], graph)).toEqual([["a.ts", "b.ts"]])
  })

  it("find a domain error the mapping forgets, and a mapping with no compile-time check", () => {
    const errors = `export class A extends Schema.TaggedError<A>()("A", {}) {}
export class B extends Data.TaggedClass("B")<{}> {}`
    const mapping = `import type { E } from "../errors.ts"
switch (error._tag) {
  case "A":
    return notFound()
}`
    expect(mappingProblems(errors, mapping)).toEqual([
      "has no `satisfies never` (exhaustiveness at compile time)",
      "does not map B",
    ])
  })

  it("see values, not types, imported from a package", () => {
    const text = `import { type ApiError, notFound, conflict as c } from "@parley/platform"
import type { Principal } from "@parley/platform"`
    expect(valuesImportedFrom(text, "@parley/platform")).toEqual(["notFound", "conflict"])
  })
})

describe("the composition checks themselves", () => {
  it("find a service declared without the Layer that provides it", () => {
    const text = `export class A extends Context.Service<A, {}>()("A") {
  static readonly layer = Layer.succeed(A, {})
}
export class B extends Context.Service<B, {}>()("B") {}
export const x = 1`
    expect(servicesWithoutLayer(text)).toEqual(["B"])
  })

  it("find a store closure and a resources bag", () => {
    expect(closureComponents("export const makeWebhookStore = (schema: string) => {}")).toEqual(["makeWebhookStore"])
    expect(closureComponents("export class MessagingResources extends Context.Service<X, {}>()")).toEqual([
      "MessagingResources",
    ])
  })

  it("tell an app.ts that builds its components by hand from one that composes their Layers", () => {
    const byHand = `import { WebhookDirectory } from "./webhooks/webhook-directory.ts"
import { makeWebhookStore } from "./webhooks/webhook-store.ts"
import type { Other } from "./other.ts"
const directory = new WebhookDirectory(sql)
const store = makeWebhookStore(schema)`
    expect(componentsBuiltByHand(byHand)).toEqual(["WebhookDirectory", "makeWebhookStore"])
    expect(ownLayersComposed(byHand)).toEqual([])
    const composed = `import { type Options, WebhookStore } from "./webhooks/webhook-store.ts"
const runtime = ManagedRuntime.make(WebhookStore.layer(schema))`
    expect(componentsBuiltByHand(composed)).toEqual([])
    expect(ownLayersComposed(composed)).toEqual(["WebhookStore"])
  })

  it("ask a hot path's README for a measurement and its folder for exactly one service", () => {
    const texts: Record<string, string> = {
      "delivery/a.ts": "export class A extends Context.Service<A, {}>()",
      "delivery/b.ts": "export class B extends Context.Service<B, {}>()",
    }
    expect(
      hotPathProblems("delivery/", "plain code for speed", Object.keys(texts), (file) => texts[file] ?? ""),
    ).toEqual(["delivery/README.md gives no measurement", "delivery/ is behind 2 services, not one"])
    expect(
      hotPathProblems("delivery/", "plain: 229 µs per delivery", ["delivery/a.ts"], (file) => texts[file] ?? ""),
    ).toEqual([])
  })
})
