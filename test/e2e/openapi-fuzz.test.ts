import { ErrorCode } from "@parley/contracts"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

// docs/contract.md §1, "bad input gets a clear 4xx, never a 500", over every operation of the OpenAPI
// document the gateway serves (read at run time, so a new route is fuzzed the day it is declared):
// hostile path ids, query values and bodies — wrong types, huge strings, deep nesting, invalid
// UTF-8, NUL, `__proto__`, wrong content types, repeated query parameters — drawn by a seeded
// generator (the same requests every run; PARLEY_FUZZ_SEED picks another set). Every answer must be
// below 500, and every error answer `{ error, code }` with a code of the contract's list.

const SEED = Number(process.env.PARLEY_FUZZ_SEED ?? 1313)
const REQUESTS_PER_OPERATION = 14

/** mulberry32: a small, well-known seeded generator. */
const seeded = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`

/** Path segments, already percent-encoded as a hostile client would send them. */
const PATH_VALUES = [
  "%00",
  "a%00b",
  "%01%1F",
  "%FF%FE",
  "%ED%A0%80",
  "__proto__",
  "constructor",
  "..%2F..%2Fetc%2Fpasswd",
  "x".repeat(300),
  "wh_0000000000000000000000",
  "%F0%9F%98%80",
  "-1",
  "1e999",
  "%20",
]

const QUERY_VALUES = ["%00", "%FF", "x".repeat(5_000), "__proto__", "-1", "1e999", "%E2%80%AE", "[]", "true"]

const BODIES: ReadonlyArray<{ readonly type?: string; readonly bytes: string | Uint8Array }> = [
  { type: "application/json", bytes: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
  { type: "application/json", bytes: deep(5_000) },
  { type: "application/json", bytes: `{"a":${deep(200)}}` },
  { type: "application/json", bytes: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { type: "application/json", bytes: '{"name":"a\\u0000b","url":"\\u0000","events":["\\u0000"]}' },
  { type: "application/json", bytes: `{"name":"${"x".repeat(200_000)}"}` },
  { type: "application/json", bytes: "[1,2,3]" },
  { type: "application/json", bytes: '{"a":1,"a":2}' },
  { type: "application/json", bytes: "nul" },
  { type: "text/plain", bytes: '{"name":"x"}' },
  { type: "application/x-www-form-urlencoded", bytes: "name=x&url=y" },
  { type: "multipart/form-data; boundary=x", bytes: "--x\r\n\r\n--x--" },
  { bytes: '{"name":"x"}' },
  { type: "application/json; charset=utf-16", bytes: '{"name":"x"}' },
]

interface Operation {
  readonly method: string
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly queryParams: ReadonlyArray<string>
  readonly hasBody: boolean
}

const ErrorBody = Schema.Struct({ error: Schema.String, code: ErrorCode })
const isErrorBody = Schema.is(ErrorBody)

let system: System
let tenant: Tenant
let key: MintedKey
let widget: MintedKey
let operations: ReadonlyArray<Operation>

beforeAll(async () => {
  // The general limit would answer most of the run with 429 (a fine answer, but one that tests nothing).
  system = await startSystem({ env: { PARLEY_RATE_GENERAL_PER_MIN: "1000000", PARLEY_RATE_HEAVY_PER_MIN: "1000000" } })
  tenant = await system.createTenant()
  ;[key, widget] = await Promise.all([
    tenant.mintKey(),
    tenant.mintKey(["chat:read", "chat:write", "bookings:read", "bookings:write"]),
  ])
  const document = (await system.call("GET", "/docs/openapi.json")).body as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>>
  }
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        pathParams: (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name),
        queryParams: (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
        hasBody: operation.requestBody !== undefined,
      })),
  )
}, 60_000)
afterAll(async () => {
  await system?.close()
})

/** The credential a route's callers present: the operator token, a widget key, an admin key. */
const credentialOf = (path: string): Record<string, string> => {
  if (path.startsWith("/api/operator")) return { authorization: `Bearer ${system.operatorToken}` }
  if (path.startsWith("/api/public")) return { "x-api-key": widget.key }
  if (path.startsWith("/channels")) return {}
  return { "x-api-key": key.key }
}

describe("every operation of the OpenAPI document, fuzzed", () => {
  it("finds the operations in the served document", () => {
    expect(operations.length).toBeGreaterThan(40)
  })

  it(`answers every hostile request below 500, and every error as { error, code } (seed ${SEED})`, async () => {
    const random = seeded(SEED)
    const pick = <A>(values: ReadonlyArray<A>): A => values[Math.floor(random() * values.length)] as A
    const failures: Array<string> = []
    let sent = 0
    for (const operation of operations) {
      // Routes that hash a password (scrypt) get fewer requests: each costs ~100 ms of CPU.
      const hashes = /\/(organizations|members|login)$/.test(operation.path) && operation.method === "POST"
      const count = hashes ? 4 : REQUESTS_PER_OPERATION
      const requests = Array.from({ length: count }, () => {
        let path = operation.path.replace(/\{[^}]+\}/g, () => pick(PATH_VALUES))
        const query: Array<string> = []
        if (operation.queryParams.length > 0 || random() < 0.3) {
          for (const name of operation.queryParams.length > 0 ? operation.queryParams : ["limit"]) {
            if (random() < 0.6) query.push(`${name}=${pick(QUERY_VALUES)}`)
            // A repeated parameter.
            if (random() < 0.2) query.push(`${name}=1`, `${name}=2`)
          }
          if (random() < 0.2) query.push(`__proto__[x]=1`)
        }
        if (query.length > 0) path += `?${query.join("&")}`
        const body = operation.hasBody || random() < 0.2 ? pick(BODIES) : undefined
        return { path, body }
      })
      await Promise.all(
        requests.map(async ({ path, body }) => {
          const headers: Record<string, string> = { ...credentialOf(operation.path) }
          if (body?.type !== undefined) headers["content-type"] = body.type
          let response: Response
          try {
            response = await fetch(`${system.url}${path}`, {
              method: operation.method,
              headers,
              ...(body === undefined || operation.method === "GET"
                ? {}
                : { body: typeof body.bytes === "string" ? body.bytes : new Uint8Array(body.bytes) }),
            })
          } catch (error) {
            failures.push(`${operation.method} ${path}: no answer (${String(error)})`)
            return
          }
          sent++
          // The inbox's live stream (server-sent events) stays open by design: its status is the answer.
          if (response.status === 200 && response.headers.get("content-type")?.startsWith("text/event-stream")) {
            await response.body?.cancel()
            return
          }
          const text = await response.text()
          const what = `${operation.method} ${path.slice(0, 120)} ${body?.type ?? ""} → ${response.status}`
          if (response.status >= 500) failures.push(`${what}: ${text.slice(0, 200)}`)
          else if (response.status >= 400) {
            let parsed: unknown
            try {
              parsed = JSON.parse(text)
            } catch {
              parsed = undefined
            }
            if (!isErrorBody(parsed)) failures.push(`${what}: not { error, code }: ${text.slice(0, 200)}`)
          }
        }),
      )
    }
    console.log(`openapi fuzz: ${sent} requests over ${operations.length} operations, seed ${SEED}`)
    expect(failures, failures.slice(0, 30).join("\n")).toEqual([])
  }, 240_000)
})
