import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

/**
 * The assistant's import graph (type-only imports included, as madge counts them): no module
 * imports itself back through others, and the engine (`src/engine/`) stays pure — it imports
 * nothing that reads or writes (no database, bus, HTTP, file system), only its own modules, the
 * booking settings' types, the contracts' schemas and the text libraries it is built on.
 */

const SRC = new URL("./", import.meta.url)

const sourceFiles = (dir = ""): Array<string> =>
  readdirSync(new URL(dir, SRC), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(`${dir}${entry.name}/`)
      : entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")
        ? [`${dir}${entry.name}`]
        : [],
  )

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/g

const importsOf = (file: string): Array<string> =>
  [...readFileSync(new URL(file, SRC), "utf8").matchAll(IMPORT)].map((match) => match[1] ?? "")

const resolve = (from: string, specifier: string): string => {
  const parts = [...from.split("/").slice(0, -1), ...specifier.split("/")]
  const out: Array<string> = []
  for (const part of parts) {
    if (part === "..") out.pop()
    else if (part !== ".") out.push(part)
  }
  return out.join("/")
}

const files = sourceFiles()
const graph = new Map(
  files.map((file) => [
    file,
    importsOf(file)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolve(file, specifier)),
  ]),
)

/** Every cycle, each once, as the list of its modules. */
const cycles = (): Array<Array<string>> => {
  const found: Array<Array<string>> = []
  const state = new Map<string, "open" | "done">()
  const path: Array<string> = []
  const visit = (file: string) => {
    state.set(file, "open")
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push(path.slice(path.indexOf(next)))
      else if (state.get(next) === undefined) visit(next)
    }
    path.pop()
    state.set(file, "done")
  }
  for (const file of files) if (state.get(file) === undefined) visit(file)
  return found
}

const ENGINE_MAY_IMPORT = [
  /^\.\.?\//,
  /^@parley\/contracts$/,
  /^effect$/,
  /^chrono-node$/,
  /^libphonenumber-js$/,
  /^eld\/small$/,
  /^minisearch$/,
  /^@orama\/stemmers\/[a-z]+$/,
]

describe("the assistant's modules", () => {
  it("import each other without a cycle", () => {
    expect(files.length).toBeGreaterThan(30)
    expect(cycles()).toEqual([])
  })

  it("keep the engine pure: it imports nothing that does I/O", () => {
    const engine = files.filter((file) => file.startsWith("engine/"))
    expect(engine.length).toBeGreaterThan(10)
    const offending = engine.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !ENGINE_MAY_IMPORT.some((allowed) => allowed.test(specifier)))
        .map((specifier) => `${file} → ${specifier}`),
    )
    expect(offending).toEqual([])
    const outside = engine.flatMap((file) =>
      (graph.get(file) ?? [])
        .filter((target) => !target.startsWith("engine/") && target !== "bookings/settings.ts")
        .map((target) => `${file} → ${target}`),
    )
    expect(outside).toEqual([])
  })

  it("finds a cycle when there is one (the check itself works)", () => {
    graph.set("a.ts", ["b.ts"])
    graph.set("b.ts", ["a.ts"])
    files.push("a.ts", "b.ts")
    try {
      expect(cycles()).toContainEqual(["a.ts", "b.ts"])
    } finally {
      graph.delete("a.ts")
      graph.delete("b.ts")
      files.splice(files.indexOf("a.ts"), 2)
    }
  })
})
