import type { Bus, OutboxWriter } from "@parley/bus"
import type { messagingRoutes } from "@parley/contracts"
import type { Database } from "@parley/db"
import type { RouteHandlers } from "@parley/platform"
import type { CampaignWakeup } from "../campaigns/wakeup.ts"
import type { MessagingError } from "../errors.ts"
import type { ProviderParties } from "../messages/send.ts"

/** Everything route logic and the background work may ask for: the services `app.ts` composes. */
export type MessagingServices = Database | OutboxWriter | Bus | ProviderParties | CampaignWakeup

/**
 * One handler per route `messagingRoutes` declares (`@parley/contracts`). docs/contract.md §9: every
 * tenant route needs an administrator (a session's admin, or a non-widget key, which the gateway
 * presents as admin) — the declared access `serveRoutes` enforces.
 */
export type MessagingHandlers = RouteHandlers<typeof messagingRoutes.routes, MessagingError, MessagingServices>
