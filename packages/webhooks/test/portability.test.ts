import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/** The runtime code must run on Deno, Bun and edge runtimes: Web APIs only, Effect the only dependency. */
const srcDir = fileURLToPath(new URL("../src/", import.meta.url))
const runtimeFiles = readdirSync(srcDir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))

describe("portability", () => {
  it.each(runtimeFiles)("%s imports only effect and sibling modules, and uses no Node globals", (file) => {
    const source = readFileSync(`${srcDir}${file}`, "utf8")
    const specifiers = [...source.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1] as string)
    for (const specifier of specifiers) expect(specifier).toMatch(/^(effect(\/.*)?|\.\/[\w-]+\.ts)$/)
    expect(source).not.toMatch(/\b(Buffer|process|require)\s*[.(]/)
  })
})
