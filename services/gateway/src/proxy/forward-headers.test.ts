import { describe, expect, it } from "vitest"
import { requestHeadersFor, responseHeadersFor } from "./forward-headers.ts"

const context = {
  requestId: "req_1",
  clientIp: "203.0.113.7",
  protocol: "https",
  host: "api.example.com",
  principal: "signed",
  contentLength: undefined,
}

const incoming = {
  "x-api-key": "parley_secret",
  authorization: "Bearer token",
  cookie: "parley_session=abc",
  connection: "keep-alive, x-custom-hop",
  "x-custom-hop": "1",
  "keep-alive": "timeout=5",
  "transfer-encoding": "chunked",
  "x-parley-principal": "forged",
  "x-parley-internal": "forged",
  "x-request-id": "client-id",
  "content-type": "application/json",
  "content-length": "12",
  accept: "application/json",
}

describe("headers crossing the gateway", () => {
  it("drops credentials, hop-by-hop and forged internal headers on the private API", () => {
    const out = requestHeadersFor(incoming, { ...context, surface: "private" })
    expect(out).toEqual({
      "content-type": "application/json",
      "content-length": "12",
      accept: "application/json",
      "x-request-id": "req_1",
      "x-forwarded-for": "203.0.113.7",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "api.example.com",
      "x-parley-principal": "signed",
    })
  })

  it("keeps the cookie for /api/auth and the bearer token for the operator API and channels", () => {
    expect(requestHeadersFor(incoming, { ...context, surface: "auth" }).cookie).toBe("parley_session=abc")
    expect(requestHeadersFor(incoming, { ...context, surface: "auth" }).authorization).toBeUndefined()
    expect(requestHeadersFor(incoming, { ...context, surface: "operator" }).authorization).toBe("Bearer token")
    expect(requestHeadersFor(incoming, { ...context, surface: "channels" }).authorization).toBe("Bearer token")
    expect(requestHeadersFor(incoming, { ...context, surface: "channels" }).cookie).toBeUndefined()
  })

  it("never forwards a client's principal, even without one of its own", () => {
    const out = requestHeadersFor(incoming, { ...context, surface: "operator", principal: undefined })
    expect(out["x-parley-principal"]).toBeUndefined()
    expect(out["x-parley-internal"]).toBeUndefined()
  })

  it("states the length of a body the gateway rewrote", () => {
    expect(requestHeadersFor(incoming, { ...context, surface: "public", contentLength: 7 })["content-length"]).toBe("7")
  })

  it("drops hop-by-hop headers from answers and keeps the rest, cookies included", () => {
    expect(
      responseHeadersFor({
        connection: "close",
        "transfer-encoding": "chunked",
        "set-cookie": ["a=1", "b=2"],
        "content-type": "text/csv",
        "x-parley-principal": "x",
      }),
    ).toEqual({ "set-cookie": ["a=1", "b=2"], "content-type": "text/csv" })
  })
})
