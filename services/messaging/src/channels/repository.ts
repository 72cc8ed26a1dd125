import type { ChannelKind, ChannelRecord, OrgId } from "@parley/contracts"
import { Database } from "@parley/db"
import { Effect, Option } from "effect"
import type postgres from "postgres"

/** A channel row as the service uses it internally (sealed secrets included, never returned). */
export interface StoredChannel {
  readonly id: string
  readonly org_id: OrgId
  readonly kind: ChannelKind
  readonly phone_number_id: string | null
  readonly business_account_id: string | null
  readonly access_token_sealed: string | null
  readonly outbound_url: string | null
  readonly inbound_token_sealed: string | null
  /** A cloud channel in which Parley plays the provider (docs/contract.md §16). */
  readonly sandbox: boolean
  readonly display_phone_number: string | null
  /** When the provider confirmed the token can read the number (§10.1); null before that existed. */
  readonly verified_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

export const toChannel = (row: StoredChannel): ChannelRecord => ({
  id: row.id,
  type: row.kind,
  phoneNumberId: row.phone_number_id,
  businessAccountId: row.business_account_id,
  outboundUrl: row.outbound_url,
  sandbox: row.sandbox,
  status: row.verified_at === null ? "unverified" : "connected",
  displayPhoneNumber: row.display_phone_number,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

export const listChannels = (orgId: OrgId) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    return yield* Effect.promise(
      () => sql<Array<StoredChannel>>`
        select * from messaging.channels where org_id = ${orgId} order by created_at desc, id desc`,
    )
  })

export const findChannel = (orgId: OrgId, kind: ChannelKind) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const [row] = yield* Effect.promise(
      () => sql<Array<StoredChannel>>`select * from messaging.channels where org_id = ${orgId} and kind = ${kind}`,
    )
    return Option.fromNullishOr(row)
  })

/**
 * The channel a send goes through, as a condition and order over `c` (`messaging.channels`): the
 * one asked for (`requested`), else cloud when configured, else bridge. Cloud first because it is the
 * number customers know and the only one that carries templates. Both arguments are SQL, so a
 * statement that picks many sends' channels at once (`send-writes.ts`) passes its own columns.
 */
export const sendChannelChoice = (
  sql: postgres.Sql | postgres.TransactionSql,
  orgId: postgres.PendingQuery<postgres.Row[]>,
  requested: postgres.PendingQuery<postgres.Row[]>,
) => sql`
  c.org_id = ${orgId} and (c.kind = ${requested} or ${requested} is null)
  order by c.kind = 'cloud' desc
  limit 1`

/** The channel a send goes through (`sendChannelChoice`). */
export const resolveSendChannel = (orgId: OrgId, requested: ChannelKind | undefined) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const [row] = yield* Effect.promise(
      () => sql<Array<StoredChannel>>`
        select * from messaging.channels c
        where ${sendChannelChoice(sql, sql`${orgId}::text`, sql`${requested ?? null}::text`)}`,
    )
    return Option.fromNullishOr(row)
  })
