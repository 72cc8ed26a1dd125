import { readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { importGraph } from "./import-graph.ts"

/**
 * No module of Parley imports a value from `node:http` as an ES module. Building the namespace of
 * `node:http` reads every export, and its lazy `WebSocket`, `MessageEvent` and `CloseEvent` load
 * Node's own bundled copy of undici: 13 MB of RSS in every process, for nothing (Parley calls out
 * with the undici package, and CommonJS dependencies such as Fastify `require` it without the
 * namespace). Issue #28's memory target. `import type` is erased and costs nothing.
 */

const ROOT = new URL("../../", import.meta.url)

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
      for (const name of readdirSync(new URL(`${top}/`, ROOT))) {
        const src = new URL(`${top}/${name}/src/`, ROOT)
        const { files, textOf } = importGraph(src)
        // Test helpers (`src/testing/`) never load in a running Parley.
        for (const file of files.filter((file) => !file.split("/").includes("testing"))) {
          for (const found of httpValueImports(textOf(file))) offenders.push(`${top}/${name}/src/${file}: ${found}`)
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
