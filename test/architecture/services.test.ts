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
