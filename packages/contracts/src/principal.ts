import { Schema } from "effect"
import { KeyId, OrgId, UserId } from "./ids.ts"
import { Scope } from "./scopes.ts"

/**
 * Who a request acts for, as the gateway establishes it and passes it to services in the signed
 * `x-parley-principal` header (docs/internal-apis.md, `@parley/platform` signs and verifies it).
 */
export const UserActor = Schema.Struct({
  type: Schema.Literal("user"),
  userId: UserId,
  /** The member's email, when the gateway knows it (who holds a conversation, docs/contract.md §17). */
  email: Schema.optionalKey(Schema.String),
})
export const ApiKeyActor = Schema.Struct({
  type: Schema.Literal("api_key"),
  keyId: KeyId,
  scopes: Schema.Array(Scope),
})
export const Actor = Schema.Union([UserActor, ApiKeyActor])
export type Actor = typeof Actor.Type

export const Role = Schema.Literals(["admin", "member"])
export type Role = typeof Role.Type

export const Principal = Schema.Struct({
  orgId: OrgId,
  role: Role,
  actor: Actor,
  requestId: Schema.String,
  /** The organization's name, when the gateway knows it (the assistant's default business name). */
  orgName: Schema.optionalKey(Schema.String),
}).annotate({ identifier: "Principal" })
export type Principal = typeof Principal.Type
