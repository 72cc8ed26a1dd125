import type { OutgoingRecord } from "@parley/bus"
import {
  encodeBusValue,
  isoTimestamp,
  Topics,
  type Webhook,
  WebhookChanged,
  type WebhookId,
  type WebhookStateRow,
  webhookChangedOf,
} from "@parley/contracts"

/** A row of `webhook_registry.webhooks`: the state the bus carries (`WebhookStateRow`) and the rest. */
export interface WebhookRow extends WebhookStateRow {
  readonly id: WebhookId
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
  id: row.id,
  url: row.url,
  events: row.events,
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
  value: encodeBusValue(
    WebhookChanged,
    webhookChangedOf(row.id, row, { deleted, version: row.version, changedAt: row.updated_at }),
  ),
})
