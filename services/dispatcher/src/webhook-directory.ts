import type { EventName, OrgId, WebhookChanged, WebhookId } from "@parley/contracts"
import type postgres from "postgres"

/** What the dispatcher knows of one webhook: where to send, what it wants, how to sign. */
export interface DispatchTarget {
  readonly webhookId: WebhookId
  readonly orgId: OrgId
  readonly url: string
  readonly events: ReadonlyArray<EventName>
  readonly enabled: boolean
  readonly sealedSecret: string
}

/**
 * Entries are cached briefly to spare the database one query per event and per attempt. Changes
 * applied by this process invalidate at once; the TTL bounds how stale another instance can be, well
 * inside the one second CONTRACT.md §6 allows between a webhook change and the events it governs.
 */
export const DirectoryCacheMs = 250

interface Cached<A> {
  readonly value: A
  readonly until: number
}

/**
 * The dispatcher's projection of `parley.registry.webhooks.v1` in its own schema: applying a change
 * (newer versions only) and reading the targets of an event or an attempt.
 */
export class WebhookDirectory {
  readonly #sql: postgres.Sql
  readonly #schema: string
  readonly #byOrg = new Map<string, Cached<ReadonlyArray<DispatchTarget>>>()
  readonly #byId = new Map<string, Cached<DispatchTarget | undefined>>()

  constructor(sql: postgres.Sql, schema = "dispatcher") {
    this.#sql = sql
    this.#schema = schema
  }

  /** Applies a change unless a newer version is already held (records may arrive again or late). */
  async apply(change: WebhookChanged): Promise<void> {
    const table = this.#sql(this.#schema)
    await this.#sql`
      insert into ${table}.webhooks
        (webhook_id, org_id, url, events, enabled, sealed_secret, deleted, version, changed_at)
      values (${change.webhookId}, ${change.orgId}, ${change.url}, ${change.events as Array<string>},
              ${change.enabled}, ${change.sealedSecret}, ${change.deleted}, ${change.version}, ${change.changedAt})
      on conflict (webhook_id) do update set
        org_id = excluded.org_id, url = excluded.url, events = excluded.events, enabled = excluded.enabled,
        sealed_secret = excluded.sealed_secret, deleted = excluded.deleted, version = excluded.version,
        changed_at = excluded.changed_at
      where webhooks.version < excluded.version`
    this.#byOrg.delete(change.orgId)
    this.#byId.delete(change.webhookId)
  }

  /** Enabled, not deleted webhooks of the organization whose `events` contain this event. */
  async subscribers(orgId: OrgId, event: EventName): Promise<ReadonlyArray<DispatchTarget>> {
    const now = Date.now()
    let cached = this.#byOrg.get(orgId)
    if (cached === undefined || cached.until <= now) {
      const rows = await this.#sql<Array<Row>>`
        select webhook_id, org_id, url, events, enabled, sealed_secret from ${this.#sql(this.#schema)}.webhooks
        where org_id = ${orgId} and enabled and not deleted`
      cached = { value: rows.map(toTarget), until: now + DirectoryCacheMs }
      this.#byOrg.set(orgId, cached)
    }
    return cached.value.filter((target) => target.events.includes(event))
  }

  /** The webhook as it is now, or undefined when it was deleted or never known. */
  async target(webhookId: WebhookId): Promise<DispatchTarget | undefined> {
    const now = Date.now()
    let cached = this.#byId.get(webhookId)
    if (cached === undefined || cached.until <= now) {
      const [row] = await this.#sql<Array<Row>>`
        select webhook_id, org_id, url, events, enabled, sealed_secret from ${this.#sql(this.#schema)}.webhooks
        where webhook_id = ${webhookId} and not deleted`
      cached = { value: row === undefined ? undefined : toTarget(row), until: now + DirectoryCacheMs }
      this.#byId.set(webhookId, cached)
    }
    return cached.value
  }
}

interface Row {
  readonly webhook_id: string
  readonly org_id: string
  readonly url: string
  readonly events: Array<string>
  readonly enabled: boolean
  readonly sealed_secret: string
}

const toTarget = (row: Row): DispatchTarget => ({
  webhookId: row.webhook_id as WebhookId,
  orgId: row.org_id as OrgId,
  url: row.url,
  events: row.events as Array<EventName>,
  enabled: row.enabled,
  sealedSecret: row.sealed_secret,
})
