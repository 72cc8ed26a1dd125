import type { identityRoutes } from "@parley/contracts"
import type { RouteHandlers } from "@parley/platform"
import type { ManagedRuntime } from "effect"
import type { Accounts } from "../accounts/accounts.ts"
import type { ApiKeys } from "../api-keys/api-keys.ts"
import type { IdentityError } from "../errors.ts"
import type { Members } from "../members/members.ts"
import type { Organizations } from "../organizations/organizations.ts"

/** What route logic runs on: identity's services, built once per app. */
export type IdentityServices = Organizations | Accounts | Members | ApiKeys
export type IdentityRuntime = ManagedRuntime.ManagedRuntime<IdentityServices, never>

/** One handler per route `identityRoutes` declares (`@parley/contracts`). */
export type IdentityHandlers = RouteHandlers<typeof identityRoutes.routes, IdentityError, IdentityServices>
