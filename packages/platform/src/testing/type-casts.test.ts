import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { afterAll, describe, expect, it } from "vitest"
import { typeCastsIn } from "./type-casts.ts"

const dir = mkdtempSync(`${tmpdir()}/type-casts-`)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("typeCastsIn", () => {
  it("finds the casts that throw a type away, in nested source files, and nothing else", () => {
    mkdirSync(`${dir}/src/http`, { recursive: true })
    const never = ["as", "never"].join(" ")
    writeFileSync(
      `${dir}/src/http/routes.ts`,
      [
        `const a = b ${never}`,
        "const c = d as unknown as Lead",
        "const e = f as OrgId",
        "// a comment saying it was cast " + never,
        "const g = h as string",
        "const i = j as OrgIdLike",
        "const was = 'never called'",
      ].join("\n"),
    )
    writeFileSync(`${dir}/src/clean.ts`, "export const x = 1 as const\n")
    writeFileSync(`${dir}/src/http/routes.test.ts`, `const id = "org_x" as OrgId\nconst y = z ${never}\n`)
    writeFileSync(`${dir}/src/notes.md`, `y ${never}\n`)
    expect(typeCastsIn(`${dir}/src/`)).toEqual([
      `http/routes.ts:1: const a = b ${never}`,
      "http/routes.ts:2: const c = d as unknown as Lead",
      "http/routes.ts:3: const e = f as OrgId",
    ])
  })

  it("refuses a folder without TypeScript sources, so a moved folder cannot pass by finding nothing", () => {
    mkdirSync(`${dir}/empty`)
    writeFileSync(`${dir}/empty/only.test.ts`, "export {}\n")
    expect(() => typeCastsIn(`${dir}/empty`)).toThrow(/no TypeScript source file/)
  })
})
