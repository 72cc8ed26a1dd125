import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { describeIssues, requestIssues } from "../validation.ts"
import { allServiceRoutes } from "./routes/index.ts"

/** docs/contract.md §1: the lists that can grow without bound take `?limit=` (1–100) and `?cursor=`. */
const PAGED_LISTS = [
  "GET /api/org/webhooks/:id/deliveries",
  "GET /api/conversations",
  "GET /api/conversations/:id",
  "GET /api/leads",
  "GET /api/bookings",
  "GET /api/messages",
  "GET /api/campaigns",
  "GET /api/campaigns/:id/recipients",
  "GET /api/contacts/opt-outs",
  "GET /api/contacts",
  "GET /api/sandbox/outbox",
]

/** Every declared route whose query has a `limit`, with the decoder the services answer 400 from. */
const pagedRoutes = allServiceRoutes.flatMap((service) =>
  Object.values(service.routes).flatMap((route) => {
    const query = route.query
    if (query === undefined || !("effect" in query)) return []
    const fields = (query.effect as { fields?: Record<string, unknown> }).fields
    if (fields === undefined || !("limit" in fields)) return []
    const decode = Schema.decodeUnknownResult(query.effect as Schema.Codec<unknown, unknown>)
    return [{ name: `${route.method} ${route.path}`, decode }]
  }),
)

describe("?limit= on every list", () => {
  it("is taken by each list of the contract that can grow without bound", () => {
    expect(pagedRoutes.map((route) => route.name).sort()).toEqual([...PAGED_LISTS].sort())
  })

  for (const written of ["abc", "0", "101", "1.5", "", "-1", "1e1", " 5"]) {
    it(`refuses ${JSON.stringify(written)} on every list with the one same issue and sentence`, () => {
      for (const route of pagedRoutes) {
        const result = route.decode({ limit: written }, { errors: "all", onExcessProperty: "ignore" })
        expect(result._tag, route.name).toBe("Failure")
        if (result._tag !== "Failure") continue
        const issues = requestIssues(result.failure)
        expect(issues, route.name).toEqual([{ path: "limit", message: "Expected an integer 1–100" }])
        expect(`Invalid request: ${describeIssues(issues)}`, route.name).toBe(
          "Invalid request: limit: Expected an integer 1–100",
        )
      }
    })
  }

  it("reads 1, 50 and 100 (leading zeros too) as numbers on every list", () => {
    for (const route of pagedRoutes) {
      for (const [written, limit] of [
        ["1", 1],
        ["50", 50],
        ["100", 100],
        ["007", 7],
      ] as const) {
        const result = route.decode({ limit: written }, { errors: "all", onExcessProperty: "ignore" })
        expect(result._tag, `${route.name} ${written}`).toBe("Success")
        if (result._tag === "Success") expect((result.success as { limit: unknown }).limit).toBe(limit)
      }
    }
  })
})

describe("?cursor= on every list", () => {
  for (const written of ["", "x".repeat(201)]) {
    it(`refuses a cursor of ${written.length} characters on every list with the one same issue`, () => {
      for (const route of pagedRoutes) {
        const result = route.decode({ cursor: written }, { errors: "all", onExcessProperty: "ignore" })
        expect(result._tag, route.name).toBe("Failure")
        if (result._tag !== "Failure") continue
        expect(requestIssues(result.failure), route.name).toEqual([
          { path: "cursor", message: "Expected a cursor from nextCursor" },
        ])
      }
    })
  }

  it("hands any other cursor to the list, which says itself whether it issued it", () => {
    for (const route of pagedRoutes) {
      const result = route.decode({ cursor: "eyJhIjoxfQ" }, { errors: "all", onExcessProperty: "ignore" })
      expect(result._tag, route.name).toBe("Success")
    }
  })
})
