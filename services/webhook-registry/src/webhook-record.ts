import type { OutgoingRecord } from "@parley/bus"
import {
  type EventName,
  encodeBusValue,
  isoTimestamp,
  type OrgId,
  Topics,
  type Webhook,
  WebhookChanged,
  type WebhookId,
} from "@parley/contracts"

/** A row of `webhook_registry.webhooks`. */
export interface WebhookRow {
  readonly id: string
  readonly org_id: string
  readonly url: string
  readonly events: Array<string>
  readonly enabled: boolean
  readonly sealed_secret: string
  /** The key before the latest rotation, sealed, while its window lasts (else null, as its expiry). */
  readonly previous_sealed_secret: string | null
  readonly previous_secret_expires_at: Date | null
  readonly version: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly last_delivery_status: "success" | "failed" | null
  readonly last_delivery_at: Date | null
  readonly last_response_status: number | null
  readonly failure_count: number
}

/** The contract's Webhook shape, exactly; the secret never leaves through here. */
export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id as WebhookId,
  url: row.url,
  events: row.events as Array<EventName>,
  enabled: row.enabled,
  createdAt: isoTimestamp(row.created_at),
  updatedAt: isoTimestamp(row.updated_at),
  lastDeliveryStatus: row.last_delivery_status,
  lastDeliveryAt: row.last_delivery_at === null ? null : isoTimestamp(row.last_delivery_at),
  lastResponseStatus: row.last_response_status,
  failureCount: row.failure_count,
})

/** The bus record of a change: the whole state after it, with the secrets still sealed. */
export const webhookChanged = (row: WebhookRow, deleted: boolean): OutgoingRecord => ({
  topic: Topics.registryWebhooks,
  key: row.id,
  value: encodeBusValue(WebhookChanged, {
    webhookId: row.id as WebhookId,
    orgId: row.org_id as OrgId,
    url: row.url,
    events: row.events as Array<EventName>,
    enabled: row.enabled,
    sealedSecret: row.sealed_secret,
    previousSecret:
      row.previous_sealed_secret === null || row.previous_secret_expires_at === null
        ? null
        : { sealedSecret: row.previous_sealed_secret, expiresAt: isoTimestamp(row.previous_secret_expires_at) },
    deleted,
    version: row.version,
    changedAt: isoTimestamp(row.updated_at),
  }),
})
