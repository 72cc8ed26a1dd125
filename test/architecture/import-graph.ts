import { existsSync, readdirSync, readFileSync } from "node:fs"

/**
 * A folder's import graph as madge counts it (type-only imports included): every `.ts` module that
 * is not a test, the specifiers it imports, and the relative ones resolved to the modules they name.
 * Paths are relative to the folder (`http/errors.ts`).
 */
export interface ImportGraph {
  readonly files: Array<string>
  readonly importsOf: (file: string) => ReadonlyArray<string>
  readonly graph: Map<string, Array<string>>
  readonly textOf: (file: string) => string
}

const sourceFiles = (root: URL, dir = ""): Array<string> =>
  existsSync(new URL(dir, root))
    ? readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sourceFiles(root, `${dir}${entry.name}/`)
          : entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")
            ? [`${dir}${entry.name}`]
            : [],
      )
    : []

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/g

export const resolve = (from: string, specifier: string): string => {
  const parts = [...from.split("/").slice(0, -1), ...specifier.split("/")]
  const out: Array<string> = []
  for (const part of parts) {
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop()
    else if (part === "..") out.push(part)
    else if (part !== ".") out.push(part)
  }
  return out.join("/")
}

/** `root` is a folder URL ending in `/`, for example a service's `src/`. */
export const importGraph = (root: URL): ImportGraph => {
  const files = sourceFiles(root)
  const texts = new Map(files.map((file) => [file, readFileSync(new URL(file, root), "utf8")]))
  const textOf = (file: string) => texts.get(file) ?? ""
  const importsOf = (file: string) => [...textOf(file).matchAll(IMPORT)].map((match) => match[1] ?? "")
  const graph = new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => resolve(file, specifier)),
    ]),
  )
  return { files, importsOf, graph, textOf }
}

/** Every cycle, each once, as the list of its modules. */
export const cycles = (files: ReadonlyArray<string>, graph: ReadonlyMap<string, ReadonlyArray<string>>) => {
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

/** The names a module imports as values (not `import type`, not `type X`) from one package. */
export const valuesImportedFrom = (text: string, pkg: string): Array<string> =>
  [...text.matchAll(/(?:^|\n)\s*import\s+(type\s+)?\{([^}]*)\}\s*from\s+"([^"]+)"/g)]
    .filter((match) => match[1] === undefined && match[3] === pkg)
    .flatMap((match) =>
      (match[2] ?? "")
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "" && !name.startsWith("type "))
        .map((name) => name.split(/\s+as\s+/)[0] ?? name),
    )
