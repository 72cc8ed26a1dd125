import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * No module of Parley imports a value from `node:http` as an ES module. Building the namespace of
 * `node:http` reads every export, and its lazy `WebSocket`, `MessageEvent` and `CloseEvent` load
 * Node's own bundled copy of undici: 13 MB of RSS in every process, for nothing (Parley calls out
 * with the undici package, and CommonJS dependencies such as Fastify `require` it without the
 * namespace). Issue #28's memory target. `import type` is erased and costs nothing.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    // Test helpers (`src/testing/`) never load in a running Parley.
    if (name === "node_modules" || name === "dist" || name === "testing") return []
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(?:ts|mts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : []
  })

/** The `node:http` imports of a module that bring in values (an `import type` does not). */
export const httpValueImports = (text: string): Array<string> =>
  [
    ...text.matchAll(
      /(?:^|\n)\s*(import\s+(?!type\s)(?:\{[^}]*\}|\*\s+as\s+\w+|\w+(?:\s*,\s*\{[^}]*\})?)\s*from\s+"(?:node:)?http"|import\s+"(?:node:)?http")/g,
    ),
  ].map((match) => (match[1] ?? "").trim())

describe("builtins", () => {
  it("no service or package imports a value from node:http as an ES module", () => {
    const offenders: Array<string> = []
    for (const top of ["services", "packages"]) {
      for (const name of readdirSync(join(ROOT, top))) {
        const src = join(ROOT, top, name, "src")
        if (!statSync(join(ROOT, top, name)).isDirectory()) continue
        let files: Array<string> = []
        try {
          files = sourceFiles(src)
        } catch {
          continue
        }
        for (const file of files) {
          for (const found of httpValueImports(readFileSync(file, "utf8"))) offenders.push(`${file}: ${found}`)
        }
      }
    }
    expect(offenders).toEqual([])
  })

  it("tells a value import from a type import", () => {
    expect(httpValueImports(`import { STATUS_CODES } from "node:http"`)).toHaveLength(1)
    expect(httpValueImports(`import * as http from "http"`)).toHaveLength(1)
    expect(httpValueImports(`import "node:http"`)).toHaveLength(1)
    expect(httpValueImports(`import { type IncomingMessage, createServer } from "node:http"`)).toHaveLength(1)
    expect(httpValueImports(`import type { IncomingMessage } from "node:http"`)).toEqual([])
    expect(httpValueImports(`import { x } from "node:https"`)).toEqual([])
    expect(
      httpValueImports(`import { createHmac } from "node:crypto"\nimport type { IncomingMessage } from "node:http"`),
    ).toEqual([])
    expect(httpValueImports(`import {\n  createServer,\n  type Server,\n} from "node:http"`)).toHaveLength(1)
  })
})
