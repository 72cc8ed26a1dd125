/**
 * The identity the gateway passes to services, and the credential of calls between services that
 * act for no tenant. Both are HMAC-SHA256 under `PARLEY_INTERNAL_SECRET` with a domain-separation
 * label (so one kind can never be replayed as the other), valid for 60 s (clocks of one deployment
 * agree within seconds; a captured header is useless soon after), compared in constant time.
 *
 * - `x-parley-principal: <base64url JSON { principal, issuedAt }>.<base64url HMAC>`
 * - `x-parley-internal: <issuedAt ms>.<base64url HMAC(method, path with query, issuedAt)>`
 *
 * The principal travels one of two ways, both here: between processes in the signed header
 * (`signPrincipal`), within one process on the request object itself (`handPrincipalInProcess`);
 * a service receives either with `receivePrincipal`.
 */

import { createHmac, createSecretKey, type KeyObject } from "node:crypto"
import type { IncomingMessage } from "node:http"
import { Principal } from "@parley/contracts"
import { Data, Redacted, Result, Schema } from "effect"
import { base64UrlDecode, constantTimeEqual } from "./crypto.ts"

export const PRINCIPAL_HEADER = "x-parley-principal"
export const INTERNAL_HEADER = "x-parley-internal"
export const INTERNAL_AUTH_VALIDITY_MS = 60_000
// A header stamped by a host whose clock runs slightly ahead is still accepted.
const CLOCK_SKEW_MS = 5_000

export type InternalSecret = string | Redacted.Redacted<string>

export class InternalAuthRejected extends Data.TaggedError("InternalAuthRejected")<{
  readonly reason: "missing" | "malformed" | "bad_signature" | "expired"
}> {
  override get message(): string {
    return `Internal credential rejected: ${this.reason}`
  }
}

const secretOf = (secret: InternalSecret): string => (typeof secret === "string" ? secret : Redacted.value(secret))

// The secret as a KeyObject, made once: `createHmac` with a string key re-imports it on every call,
// and these MACs run on every request through the gateway and into every service.
const keyObjects = new Map<string, KeyObject>()
const keyOf = (secret: InternalSecret): KeyObject => {
  const value = secretOf(secret)
  let key = keyObjects.get(value)
  if (key === undefined) {
    key = createSecretKey(Buffer.from(value, "utf8"))
    keyObjects.set(value, key)
  }
  return key
}

const mac = (secret: InternalSecret, label: string, data: string): string =>
  createHmac("sha256", keyOf(secret)).update(`${label}\n${data}`).digest("base64url")

const withinValidity = (issuedAt: number, now: number): boolean =>
  Number.isSafeInteger(issuedAt) && issuedAt <= now + CLOCK_SKEW_MS && now - issuedAt <= INTERNAL_AUTH_VALIDITY_MS

const PrincipalEnvelope = Schema.Struct({ principal: Principal, issuedAt: Schema.Number })
const decodeEnvelope = Schema.decodeUnknownResult(Schema.fromJsonString(PrincipalEnvelope))

export interface Clock {
  readonly now?: number
}

export const signPrincipal = (secret: InternalSecret, principal: Principal, options: Clock = {}): string => {
  const envelope = { principal, issuedAt: options.now ?? Date.now() }
  const payload = Buffer.from(JSON.stringify(envelope), "utf8").toString("base64url")
  return `${payload}.${mac(secret, "parley-principal.v1", payload)}`
}

export const verifyPrincipal = (
  secret: InternalSecret,
  header: string | undefined,
  options: Clock = {},
): Result.Result<Principal, InternalAuthRejected> => {
  if (header === undefined || header === "") return Result.fail(new InternalAuthRejected({ reason: "missing" }))
  const parts = header.split(".")
  if (parts.length !== 2) return Result.fail(new InternalAuthRejected({ reason: "malformed" }))
  const [payload, signature] = parts as [string, string]
  // The signature is checked before the payload is even decoded: unauthenticated bytes are not parsed.
  if (!constantTimeEqual(signature, mac(secret, "parley-principal.v1", payload))) {
    return Result.fail(new InternalAuthRejected({ reason: "bad_signature" }))
  }
  const bytes = base64UrlDecode(payload)
  if (bytes === undefined) return Result.fail(new InternalAuthRejected({ reason: "malformed" }))
  const decoded = decodeEnvelope(new TextDecoder().decode(bytes))
  if (Result.isFailure(decoded)) return Result.fail(new InternalAuthRejected({ reason: "malformed" }))
  if (!withinValidity(decoded.success.issuedAt, options.now ?? Date.now())) {
    return Result.fail(new InternalAuthRejected({ reason: "expired" }))
  }
  return Result.succeed(decoded.success.principal)
}

/**
 * Where a gateway in the same process puts the principal of a request it hands over whole
 * (`npm start`): on the raw request object, under a symbol no HTTP client can set — only code in
 * this process can. The service takes it as verified, skipping the HMAC and the envelope's decode
 * that the signed header costs; a request from a socket never carries it and is verified as ever.
 */
const IN_PROCESS_PRINCIPAL = Symbol("@parley/platform/inProcessPrincipal")

/** Gives the service in this process that `raw` is handed to its caller's principal, unsigned. */
export const handPrincipalInProcess = (raw: IncomingMessage, principal: Principal): void => {
  ;(raw as unknown as Record<symbol, Principal>)[IN_PROCESS_PRINCIPAL] = principal
}

/**
 * The principal of a request a service received: the one handed in-process with the request
 * object, else the signed `x-parley-principal` header's, verified.
 */
export const receivePrincipal = (
  secret: InternalSecret,
  raw: IncomingMessage,
  header: string | undefined,
  options: Clock = {},
): Result.Result<Principal, InternalAuthRejected> => {
  const handed = (raw as unknown as Record<symbol, Principal | undefined>)[IN_PROCESS_PRINCIPAL]
  return handed !== undefined ? Result.succeed(handed) : verifyPrincipal(secret, header, options)
}

export interface InternalCall {
  readonly method: string
  /** The request target: path and query string exactly as sent (`/internal/keys/lookup?x=1`). */
  readonly path: string
}

const internalData = (call: InternalCall, issuedAt: number): string =>
  `${call.method.toUpperCase()}\n${call.path}\n${issuedAt}`

/** The `x-parley-internal` header value for one call. */
export const signInternalCall = (secret: InternalSecret, call: InternalCall, options: Clock = {}): string => {
  const issuedAt = options.now ?? Date.now()
  return `${issuedAt}.${mac(secret, "parley-internal.v1", internalData(call, issuedAt))}`
}

/** Headers to add to a service-to-service request. */
export const internalCallHeaders = (
  secret: InternalSecret,
  call: InternalCall,
  options: Clock = {},
): Record<string, string> => ({ [INTERNAL_HEADER]: signInternalCall(secret, call, options) })

export const verifyInternalCall = (
  secret: InternalSecret,
  call: InternalCall & { readonly header: string | undefined },
  options: Clock = {},
): Result.Result<void, InternalAuthRejected> => {
  const { header } = call
  if (header === undefined || header === "") return Result.fail(new InternalAuthRejected({ reason: "missing" }))
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]+)$/.exec(header)
  if (match === null) return Result.fail(new InternalAuthRejected({ reason: "malformed" }))
  const issuedAt = Number(match[1])
  if (!constantTimeEqual(match[2] as string, mac(secret, "parley-internal.v1", internalData(call, issuedAt)))) {
    return Result.fail(new InternalAuthRejected({ reason: "bad_signature" }))
  }
  if (!withinValidity(issuedAt, options.now ?? Date.now())) {
    return Result.fail(new InternalAuthRejected({ reason: "expired" }))
  }
  return Result.succeed(undefined)
}
