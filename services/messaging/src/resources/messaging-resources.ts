import type { Bus, OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import type { EgressClient } from "@parley/egress"
import type { SecretBox } from "@parley/platform"
import { Context } from "effect"
import type { CampaignWakeup } from "../campaigns/wakeup.ts"
import type { StoredChannel } from "../channels/repository.ts"
import type { GraphClient } from "../cloud/graph-client.ts"
import type { CloudProvider } from "../cloud/provider.ts"
import type { MessagingMetrics } from "../metrics.ts"

/**
 * The outside parties and keys the messaging features share, built once by `app.ts`: the
 * provider's Graph API (and the port each cloud channel's sends and submissions go through), the SSRF-safe client for bridge posts, and the box that seals tokens.
 */
export class MessagingResources extends Context.Service<
  MessagingResources,
  {
    readonly graph: GraphClient
    /** The provider of a cloud channel: the Graph API, or the sandbox (docs/contract.md §16). */
    readonly cloudProvider: (channel: StoredChannel) => CloudProvider
    readonly egress: EgressClient
    readonly box: SecretBox
    readonly allowPrivateUrls: boolean
    readonly metrics: MessagingMetrics
  }
>()("@parley/messaging/MessagingResources") {}

/** Everything route logic and the background work may ask for. */
export type MessagingServices = Database | OutboxWriter | Bus | MessagingResources | CampaignWakeup
