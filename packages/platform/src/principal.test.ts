import { Principal } from "@parley/contracts"
import { Redacted, Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { newId } from "./ids.ts"
import { signInternalCall, signPrincipal, verifyInternalCall, verifyPrincipal } from "./principal.ts"

const secret = "internal-secret-for-tests"
const principal = Schema.decodeUnknownSync(Principal)({
  orgId: newId("org"),
  role: "admin",
  actor: { type: "api_key", keyId: newId("key"), scopes: ["messages:send"] },
  requestId: "req-1",
})
const now = Date.UTC(2026, 10, 22, 9, 30)

const reasonOf = <A>(result: Result.Result<A, { reason: string }>) =>
  Result.isFailure(result) ? result.failure.reason : "accepted"

describe("x-parley-principal", () => {
  it("verifies what it signed, with a plain or a Redacted secret", () => {
    const header = signPrincipal(Redacted.make(secret), principal, { now })
    const verified = verifyPrincipal(secret, header, { now: now + 1_000 })
    expect(Result.isSuccess(verified) && verified.success).toEqual(principal)
  })

  it("is refused after 60 seconds and when stamped far in the future", () => {
    const header = signPrincipal(secret, principal, { now })
    expect(reasonOf(verifyPrincipal(secret, header, { now: now + 60_000 }))).toBe("accepted")
    expect(reasonOf(verifyPrincipal(secret, header, { now: now + 60_001 }))).toBe("expired")
    expect(reasonOf(verifyPrincipal(secret, header, { now: now - 30_000 }))).toBe("expired")
  })

  it("is refused when the payload or the signature is altered", () => {
    const header = signPrincipal(secret, principal, { now })
    const [payload, signature] = header.split(".") as [string, string]
    const forged = Buffer.from(
      JSON.stringify({ principal: { ...principal, orgId: newId("org") }, issuedAt: now }),
    ).toString("base64url")
    expect(reasonOf(verifyPrincipal(secret, `${forged}.${signature}`, { now }))).toBe("bad_signature")
    const altered = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`
    expect(reasonOf(verifyPrincipal(secret, `${payload}.${altered}`, { now }))).toBe("bad_signature")
    expect(reasonOf(verifyPrincipal("another-secret", header, { now }))).toBe("bad_signature")
  })

  it("is refused when missing or malformed", () => {
    expect(reasonOf(verifyPrincipal(secret, undefined))).toBe("missing")
    expect(reasonOf(verifyPrincipal(secret, "no-dot"))).toBe("malformed")
    expect(reasonOf(verifyPrincipal(secret, "a.b.c"))).toBe("malformed")
  })

  it("refuses a correctly signed payload that is not a valid principal", () => {
    const bad = signPrincipal(secret, { ...principal, role: "owner" } as unknown as Principal, { now })
    expect(reasonOf(verifyPrincipal(secret, bad, { now }))).toBe("malformed")
  })
})

describe("x-parley-internal", () => {
  const call = { method: "POST", path: "/internal/keys/lookup" }

  it("verifies a call signed for the same method and path within 60 seconds", () => {
    const header = signInternalCall(secret, call, { now })
    expect(reasonOf(verifyInternalCall(secret, { ...call, method: "post", header }, { now: now + 59_000 }))).toBe(
      "accepted",
    )
    expect(reasonOf(verifyInternalCall(secret, { ...call, header }, { now: now + 61_000 }))).toBe("expired")
  })

  it("is refused for another method, path or secret, or a moved timestamp", () => {
    const header = signInternalCall(secret, call, { now })
    expect(reasonOf(verifyInternalCall(secret, { method: "GET", path: call.path, header }, { now }))).toBe(
      "bad_signature",
    )
    expect(reasonOf(verifyInternalCall(secret, { ...call, path: "/internal/keys/lookup?x=1", header }, { now }))).toBe(
      "bad_signature",
    )
    expect(reasonOf(verifyInternalCall("other", { ...call, header }, { now }))).toBe("bad_signature")
    const moved = header.replace(/^\d+/, String(now + 30_000))
    expect(reasonOf(verifyInternalCall(secret, { ...call, header: moved }, { now }))).toBe("bad_signature")
  })

  it("cannot be replayed as a principal header, nor the other way round", () => {
    const internalHeader = signInternalCall(secret, call, { now })
    expect(reasonOf(verifyPrincipal(secret, internalHeader, { now }))).not.toBe("accepted")
    const principalHeader = signPrincipal(secret, principal, { now })
    expect(reasonOf(verifyInternalCall(secret, { ...call, header: principalHeader }, { now }))).not.toBe("accepted")
  })

  it("is refused when missing or malformed", () => {
    expect(reasonOf(verifyInternalCall(secret, { ...call, header: undefined }))).toBe("missing")
    expect(reasonOf(verifyInternalCall(secret, { ...call, header: "abc.def" }))).toBe("malformed")
  })
})
