/**
 * Request and response bodies of the identity routes (docs/contract.md §2.4, §2.5, §4) and of the
 * internal lookups the gateway makes (docs/internal-apis.md). Schemas only — no I/O.
 */
import { Schema } from "effect"
import { KeyId, OrgId, SessionId, UserId } from "../ids.ts"
import { Role as MemberRole } from "../principal.ts"
import { Scope } from "../scopes.ts"
import { IsoTimestamp } from "../values.ts"

/** Plan features an operator may grant (docs/contract.md §2.5). */
export const PlanFeatures = ["api_access"] as const
export const PlanFeature = Schema.Literals(PlanFeatures)
export type PlanFeature = typeof PlanFeature.Type

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Postgres text cannot hold U+0000: refusing it here keeps such input a 400, never a 500. */
const noNul = Schema.makeFilter((s: string) => !s.includes("\u0000") || "must not contain U+0000")

export const Email = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.makeFilter((s: string) => EMAIL.test(s) || "must be an email address"),
  noNul,
)

/** Login accepts any non-empty password: a rule change must not lock out older accounts. */
export const LoginPassword = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1024))

/**
 * A new password: at least 10 characters (docs/contract.md §2.4), not all of them whitespace; bounded so
 * hashing stays cheap. Identity also refuses one that is easy to guess (a common password, a
 * keyboard pattern, a repeated word: see its README), a check too heavy for a schema.
 */
export const NewPassword = Schema.String.check(
  Schema.isMinLength(10),
  Schema.isMaxLength(1024),
  Schema.makeFilter((s: string) => /\S/u.test(s) || "must not be only whitespace"),
)

const NonBlank = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max),
    Schema.makeFilter((s: string) => s.trim().length > 0 || "must not be empty"),
    noNul,
  )

/**
 * A browser origin a key may be used from: `https://host[:port]` (docs/contract.md §2.1), stored in the
 * form a browser sends in `Origin` (lower-case host, no default port, no trailing slash). No other
 * scheme (plain http included, even on localhost: leave `allowedOrigins` empty while developing),
 * no path, query, fragment, credentials or wildcard.
 */
export const AllowedOrigin = Schema.String.check(
  Schema.isMaxLength(2048),
  Schema.makeFilter((s: string) => normalizeOrigin(s) !== undefined || "must be an https://host[:port] origin"),
)

/** The canonical form of an allowed origin (as a browser sends it in `Origin`), or undefined. */
export const normalizeOrigin = (input: string): string | undefined => {
  if (!/^https:\/\/[^/?#@*\s]+\/?$/i.test(input)) return undefined
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return undefined
  }
  if (url.username !== "" || url.password !== "" || url.hostname === "") return undefined
  return url.protocol === "https:" ? url.origin : undefined
}

// ---- operator (§2.5) ----

export const OrganizationRecord = Schema.Struct({
  id: OrgId,
  name: Schema.String,
  features: Schema.Array(Schema.String),
  createdAt: IsoTimestamp,
}).annotate({ identifier: "Organization" })
export type OrganizationRecord = typeof OrganizationRecord.Type

export const CreateOrganizationRequest = Schema.Struct({
  name: NonBlank(100),
  features: Schema.optionalKey(Schema.Array(PlanFeature)),
  admin: Schema.Struct({ email: Email, password: NewPassword }),
})
export type CreateOrganizationRequest = typeof CreateOrganizationRequest.Type

export const UpdateOrganizationRequest = Schema.Struct({
  name: Schema.optionalKey(NonBlank(100)),
  features: Schema.optionalKey(Schema.Array(PlanFeature)),
})
export type UpdateOrganizationRequest = typeof UpdateOrganizationRequest.Type

// ---- sessions and members (§2.4) ----

export const MemberRecord = Schema.Struct({ id: UserId, email: Schema.String, role: MemberRole }).annotate({
  identifier: "Member",
})
export type MemberRecord = typeof MemberRecord.Type

export const CreateOrganizationResponse = Schema.Struct({ organization: OrganizationRecord, admin: MemberRecord })
export type CreateOrganizationResponse = typeof CreateOrganizationResponse.Type

export const LoginRequest = Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(254), noNul),
  password: LoginPassword,
  /** Which of the person's organizations to sign in to; by default the first they joined. */
  organizationId: Schema.optionalKey(OrgId),
})
export type LoginRequest = typeof LoginRequest.Type

/** The answer of login and of `GET /api/auth/me`. */
export const CurrentUserResponse = Schema.Struct({
  user: MemberRecord,
  organization: Schema.Struct({ id: OrgId, name: Schema.String }),
})
export type CurrentUserResponse = typeof CurrentUserResponse.Type

export const CreateMemberRequest = Schema.Struct({ email: Email, password: NewPassword, role: MemberRole })
export type CreateMemberRequest = typeof CreateMemberRequest.Type

/** `PATCH /api/org/members/:id`: the member's new role. */
export const UpdateMemberRequest = Schema.Struct({ role: MemberRole })
export type UpdateMemberRequest = typeof UpdateMemberRequest.Type

/** `PUT /api/auth/password`: the signed-in person's current password, and the new one (as `NewPassword`). */
export const ChangePasswordRequest = Schema.Struct({ currentPassword: LoginPassword, newPassword: NewPassword })
export type ChangePasswordRequest = typeof ChangePasswordRequest.Type

export const ListMembersResponse = Schema.Struct({ data: Schema.Array(MemberRecord) })
export type ListMembersResponse = typeof ListMembersResponse.Type

/**
 * The `:id` of identity's routes. Any string (bar U+0000): an id that is malformed names no resource,
 * so it is answered 404 like a missing one rather than 400.
 */
export const IdentityPathParams = Schema.Struct({ id: Schema.String.check(noNul) })
export type IdentityPathParams = typeof IdentityPathParams.Type

// ---- API keys (§4) ----

export const CreateApiKeyRequest = Schema.Struct({
  name: NonBlank(100),
  scopes: Schema.optionalKey(Schema.Array(Scope)),
  allowedOrigins: Schema.optionalKey(Schema.Array(AllowedOrigin).check(Schema.isMaxLength(20))),
})
export type CreateApiKeyRequest = typeof CreateApiKeyRequest.Type

/** docs/contract.md §4's KeyRecord: never the secret nor its digest. */
export const ApiKeyRecord = Schema.Struct({
  id: KeyId,
  name: Schema.String,
  prefix: Schema.String,
  scopes: Schema.Array(Scope),
  allowedOrigins: Schema.Array(Schema.String),
  createdAt: IsoTimestamp,
  lastUsedAt: Schema.NullOr(IsoTimestamp),
  revokedAt: Schema.NullOr(IsoTimestamp),
}).annotate({ identifier: "ApiKeyRecord" })
export type ApiKeyRecord = typeof ApiKeyRecord.Type

/** The 201 of key creation: the record plus the full key, shown this once. */
export const CreatedApiKey = Schema.Struct({ ...ApiKeyRecord.fields, key: Schema.String })
export type CreatedApiKey = typeof CreatedApiKey.Type

export const ListApiKeysResponse = Schema.Struct({ data: Schema.Array(ApiKeyRecord) })
export type ListApiKeysResponse = typeof ListApiKeysResponse.Type

// ---- internal lookups (gateway → identity, `x-parley-internal`) ----

const Sha256Hex = Schema.String.check(
  Schema.isPattern(/^[0-9a-f]{64}$/u, { expected: "a lowercase hex SHA-256 digest" }),
)

/** `POST /internal/keys/lookup`: `digest` is the SHA-256 hex of the full key as presented. */
export const KeyLookupRequest = Schema.Struct({ digest: Sha256Hex })
export type KeyLookupRequest = typeof KeyLookupRequest.Type

export const KeyLookupResponse = Schema.Struct({
  keyId: KeyId,
  orgId: OrgId,
  prefix: Schema.String,
  scopes: Schema.Array(Scope),
  allowedOrigins: Schema.Array(Schema.String),
  revokedAt: Schema.NullOr(IsoTimestamp),
  orgFeatures: Schema.Array(Schema.String),
  /** The organization's name, which the gateway passes on in the principal (the assistant's default business name). */
  orgName: Schema.optionalKey(Schema.String),
})
export type KeyLookupResponse = typeof KeyLookupResponse.Type

/** `POST /internal/sessions/lookup`: `tokenDigest` is the SHA-256 hex of the cookie's token. */
export const SessionLookupRequest = Schema.Struct({ tokenDigest: Sha256Hex })
export type SessionLookupRequest = typeof SessionLookupRequest.Type

export const SessionLookupResponse = Schema.Struct({
  sessionId: SessionId,
  userId: UserId,
  orgId: OrgId,
  role: MemberRole,
  expiresAt: IsoTimestamp,
  orgName: Schema.optionalKey(Schema.String),
  email: Schema.optionalKey(Schema.String),
})
export type SessionLookupResponse = typeof SessionLookupResponse.Type

// ---- API key format (§2.1) ----
//
// `parley_<prefix>.<secret>`: <prefix> is 12 base62 characters; <secret> is 43 base62 characters of
// randomness (43 × log2 62 ≈ 256.03 bits) followed by 6 base62 characters holding the CRC32 of
// everything before the checksum — the literal `parley_<prefix>.<43 random characters>` — as a
// fixed-width, zero-padded, big-endian base62 number (62^6 > 2^32). Pure code, so the gateway can
// refuse a mistyped key without any read, on any runtime.

export const API_KEY_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
export const API_KEY_LITERAL = "parley"
export const API_KEY_PREFIX_LENGTH = 12
export const API_KEY_RANDOM_LENGTH = 43
export const API_KEY_CHECKSUM_LENGTH = 6

const KEY_SHAPE = /^parley_([0-9A-Za-z]{12})\.([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

const UTF8 = new TextEncoder()

/**
 * CRC-32 (IEEE 802.3, as zlib) of the UTF-8 bytes of `text`. An ASCII text (every key: its shape is
 * checked first) is its own UTF-8, read a code unit at a time: encoding it into a fresh array on every
 * keyed request was a third of the gateway's key check.
 */
export const crc32 = (text: string): number => {
  let crc = 0xffffffff
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit > 0x7f) return crc32OfBytes(UTF8.encode(text))
    crc = (CRC_TABLE[(crc ^ unit) & 0xff] as number) ^ (crc >>> 8)
  }
  return (crc ^ 0xffffffff) >>> 0
}

const crc32OfBytes = (bytes: Uint8Array): number => {
  let crc = 0xffffffff
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/** The 6-character base62 checksum of a key body `parley_<prefix>.<random>`. */
export const apiKeyChecksum = (body: string): string => {
  let value = crc32(body)
  let out = ""
  for (let i = 0; i < API_KEY_CHECKSUM_LENGTH; i++) {
    out = API_KEY_ALPHABET[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}

export interface ParsedApiKey {
  readonly prefix: string
  readonly key: string
}

/** The key's public prefix when `candidate` is a well-formed key with a valid checksum. */
export const parseApiKey = (candidate: string): ParsedApiKey | undefined => {
  const match = KEY_SHAPE.exec(candidate)
  if (match === null) return undefined
  const body = candidate.slice(0, candidate.length - API_KEY_CHECKSUM_LENGTH)
  if (apiKeyChecksum(body) !== match[3]) return undefined
  return { prefix: match[1] as string, key: candidate }
}
