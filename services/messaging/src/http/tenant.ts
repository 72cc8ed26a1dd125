import type { messagingRoutes } from "@parley/contracts"
import type { RouteHandlers } from "@parley/platform"
import type { MessagingError } from "../errors.ts"
import type { MessagingServices } from "../resources/messaging-resources.ts"

/**
 * One handler per route `messagingRoutes` declares (`@parley/contracts`). docs/contract.md §9: every
 * tenant route needs an administrator (a session's admin, or a non-widget key, which the gateway
 * presents as admin) — the declared access `serveRoutes` enforces.
 */
export type MessagingHandlers = RouteHandlers<typeof messagingRoutes.routes, MessagingError, MessagingServices>
