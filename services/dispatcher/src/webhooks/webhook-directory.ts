import {
  type EventName,
  type OrgId,
  type WebhookChanged,
  type WebhookId,
  type WebhookStateRow,
  webhookStateColumns,
} from "@parley/contracts"
import { Database } from "@parley/db"
import { Context, Effect, Layer } from "effect"
import type postgres from "postgres"
import { Keyring, type WebhookKeys } from "../signing/signing.ts"

/** What the dispatcher knows of one webhook: where to send, what it wants, how to sign. */
export interface DispatchTarget {
  readonly webhookId: WebhookId
  readonly orgId: OrgId
  readonly url: string
  readonly events: ReadonlyArray<EventName>
  readonly enabled: boolean
  /** Its signing keys, opened and made ready once per secret (see `Keyring`). */
  readonly keys: WebhookKeys
}

/**
 * Whether a delivery is attempted at all: not once its webhook is deleted (`undefined`), nor while
 * it is disabled unless the delivery is a test (a test goes to its webhook enabled or not,
 * docs/contract.md §5).
 */
export const isDeliverableTo = (
  target: DispatchTarget | undefined,
  delivery: { readonly test?: true | undefined },
): target is DispatchTarget => target !== undefined && (target.enabled || delivery.test === true)

/**
 * Entries are cached briefly to spare the database one query per event and per attempt. Changes
 * applied by this process invalidate at once; the TTL bounds how stale another instance can be, well
 * inside the one second docs/contract.md §6 allows between a webhook change and the events it governs.
 */
export const DirectoryCacheMs = 250

/**
 * Read-through entries kept `DirectoryCacheMs` from when their read started (so no answer is older
 * than that), with at most one read per key in flight: under a backlog a query can take longer
 * than the TTL, its entry is stale on arrival, and without the shared read every delivery queried
 * again (measured: a query per delivery, which slowed every query further). A key invalidated while
 * its read runs does not store that read's answer.
 */
class ReadThrough<A> {
  readonly #load: (key: string) => Promise<A>
  readonly #entries = new Map<string, { readonly value: A; readonly until: number }>()
  readonly #loading = new Map<string, { stale: boolean; readonly promise: Promise<A> }>()

  constructor(load: (key: string) => Promise<A>) {
    this.#load = load
  }

  get(key: string): Promise<A> {
    const entry = this.#entries.get(key)
    if (entry !== undefined && entry.until > Date.now()) return Promise.resolve(entry.value)
    const running = this.#loading.get(key)
    if (running !== undefined) return running.promise
    const startedAt = Date.now()
    const read: { stale: boolean; promise: Promise<A> } = {
      stale: false,
      promise: this.#load(key).then(
        (value) => {
          if (!read.stale) {
            this.#loading.delete(key)
            this.#store(key, value, startedAt + DirectoryCacheMs)
          }
          return value
        },
        (error: unknown) => {
          if (!read.stale) this.#loading.delete(key)
          throw error
        },
      ),
    }
    this.#loading.set(key, read)
    return read.promise
  }

  invalidate(key: string): void {
    this.#entries.delete(key)
    const running = this.#loading.get(key)
    if (running !== undefined) {
      running.stale = true
      this.#loading.delete(key)
    }
  }

  #store(key: string, value: A, until: number): void {
    const now = Date.now()
    // Organizations come and go: expired entries are dropped once there are many.
    if (this.#entries.size >= 10_000) {
      for (const [k, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(k)
    }
    this.#entries.set(key, { value, until })
  }
}

/**
 * The dispatcher's projection of `parley.registry.webhooks.v1` in its own schema: applying a change
 * (newer versions only) and reading the targets of an event or an attempt. It is read for every
 * event and every attempt of the delivery path (`delivery/`, plain code for speed), so its methods
 * answer Promises, not Effects; the service is how the rest of the dispatcher is given it.
 */
export class WebhookDirectory extends Context.Service<
  WebhookDirectory,
  {
    /** Applies a change unless a newer version is already held (records may arrive again or late). */
    readonly apply: (change: WebhookChanged) => Promise<void>
    /** Enabled, not deleted webhooks of the organization whose `events` contain this event. */
    readonly subscribers: (orgId: OrgId, event: EventName) => Promise<ReadonlyArray<DispatchTarget>>
    /** The webhook as it is now, or undefined when it was deleted or never known. */
    readonly target: (webhookId: WebhookId) => Promise<DispatchTarget | undefined>
    /**
     * The webhook as it is now, `"deleted"`, or `"unknown"` when no change of it has been applied
     * here yet (the registry published one, which the projection consumer has not read yet).
     */
    readonly lookup: (webhookId: WebhookId) => Promise<DispatchTarget | "deleted" | "unknown">
  }
>()("@parley/dispatcher/WebhookDirectory") {
  /** The projection in `schema`, on the service's Database, signing with its Keyring. */
  static readonly layer = (schema = "dispatcher") =>
    Layer.effect(
      WebhookDirectory,
      Effect.gen(function* () {
        const { sql } = yield* Database
        return WebhookDirectory.of(new ProjectedWebhooks(sql, yield* Keyring, schema))
      }),
    )
}

class ProjectedWebhooks {
  readonly #sql: postgres.Sql
  readonly #schema: string
  readonly #byOrg: ReadThrough<ReadonlyArray<DispatchTarget>>
  /** A webhook by id: its target, `"deleted"`, or undefined while the projection has never seen it. */
  readonly #byId: ReadThrough<DispatchTarget | "deleted" | undefined>

  constructor(sql: postgres.Sql, keyring: Keyring["Service"], schema: string) {
    this.#sql = sql
    this.#schema = schema
    const table = sql(schema)
    const toTarget = (row: Row): DispatchTarget => ({
      webhookId: row.webhook_id,
      orgId: row.org_id,
      url: row.url,
      events: row.events,
      enabled: row.enabled,
      keys: keyring.keysOf(row.webhook_id, {
        sealed: row.sealed_secret,
        previousSealed: row.previous_sealed_secret,
        previousUntil: row.previous_secret_expires_at?.getTime() ?? 0,
      }),
    })
    this.#byOrg = new ReadThrough(async (orgId) => {
      const rows = await sql<Array<Row>>`
        select ${sql(columns)} from ${table}.webhooks where org_id = ${orgId} and enabled and not deleted`
      return rows.map(toTarget)
    })
    this.#byId = new ReadThrough(async (webhookId) => {
      const [row] = await sql<Array<Row & { readonly deleted: boolean }>>`
        select ${sql(columns)}, deleted from ${table}.webhooks where webhook_id = ${webhookId}`
      if (row === undefined) return undefined
      return row.deleted ? "deleted" : toTarget(row)
    })
  }

  /** Applies a change unless a newer version is already held (records may arrive again or late). */
  async apply(change: WebhookChanged): Promise<void> {
    const table = this.#sql(this.#schema)
    const previous = change.previousSecret ?? null
    await this.#sql`
      insert into ${table}.webhooks
        (webhook_id, org_id, url, events, enabled, sealed_secret, previous_sealed_secret, previous_secret_expires_at,
         deleted, version, changed_at)
      values (${change.webhookId}, ${change.orgId}, ${change.url}, ${change.events as Array<string>},
              ${change.enabled}, ${change.sealedSecret}, ${previous?.sealedSecret ?? null},
              ${previous?.expiresAt ?? null}::timestamptz, ${change.deleted}, ${change.version}, ${change.changedAt})
      on conflict (webhook_id) do update set
        org_id = excluded.org_id, url = excluded.url, events = excluded.events, enabled = excluded.enabled,
        sealed_secret = excluded.sealed_secret, previous_sealed_secret = excluded.previous_sealed_secret,
        previous_secret_expires_at = excluded.previous_secret_expires_at, deleted = excluded.deleted,
        version = excluded.version, changed_at = excluded.changed_at
      where webhooks.version < excluded.version`
    this.#byOrg.invalidate(change.orgId)
    this.#byId.invalidate(change.webhookId)
  }

  /** Enabled, not deleted webhooks of the organization whose `events` contain this event. */
  async subscribers(orgId: OrgId, event: EventName): Promise<ReadonlyArray<DispatchTarget>> {
    const targets = await this.#byOrg.get(orgId)
    return targets.filter((target) => target.events.includes(event))
  }

  /** The webhook as it is now, or undefined when it was deleted or never known. */
  async target(webhookId: WebhookId): Promise<DispatchTarget | undefined> {
    const found = await this.#byId.get(webhookId)
    return found === "deleted" ? undefined : found
  }

  /**
   * The webhook as it is now, `"deleted"`, or `"unknown"` when no change of it has been applied
   * here yet (the registry published one, which the projection consumer has not read yet).
   */
  async lookup(webhookId: WebhookId): Promise<DispatchTarget | "deleted" | "unknown"> {
    return (await this.#byId.get(webhookId)) ?? "unknown"
  }
}

/** A row of the projection: the state the bus carries, under the webhook's id. */
interface Row extends WebhookStateRow {
  readonly webhook_id: WebhookId
}

const columns = ["webhook_id", ...webhookStateColumns] as const
