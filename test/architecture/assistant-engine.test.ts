import { describe, expect, it } from "vitest"
import { importGraph } from "./import-graph.ts"

/**
 * The assistant's engine (`services/assistant/src/engine/`) stays pure — it imports nothing that
 * reads or writes (no database, bus, HTTP, file system), only its own modules, the booking
 * settings' types, the contracts' schemas, the number plans (`@parley/number-plan`, pure too) and
 * the text libraries it is built on. (That no module imports itself back through others is held
 * for every service in `services.test.ts`.)
 */

const { files, importsOf, graph } = importGraph(new URL("../../services/assistant/src/", import.meta.url))

const ENGINE_MAY_IMPORT = [
  /^\.\.?\//,
  /^@parley\/contracts$/,
  /^@parley\/number-plan$/,
  /^effect$/,
  /^chrono-node$/,
  /^libphonenumber-js$/,
  /^eld\/small$/,
  /^minisearch$/,
  /^@orama\/stemmers\/[a-z]+$/,
]

describe("the assistant's modules", () => {
  it("keep the engine pure: it imports nothing that does I/O", () => {
    expect(files.length).toBeGreaterThan(30)
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
})
