import type { PutBridgeChannelRequest, PutCloudChannelRequest } from "@parley/contracts"
import { Database } from "@parley/db"
import { assertPublicUrl } from "@parley/egress"
import { base64UrlEncode, newId, sha256Hex } from "@parley/platform"
import { Effect } from "effect"
import { BusinessAccountTaken, InvalidOutboundUrl, PhoneNumberTaken } from "../errors.ts"
import { MessagingResources } from "../resources.ts"
import { type StoredChannel, toChannel } from "./repository.ts"

const isUniqueViolation = (error: unknown, constraint: string): boolean =>
  typeof error === "object" &&
  error !== null &&
  (error as { code?: unknown }).code === "23505" &&
  (error as { constraint_name?: unknown }).constraint_name === constraint

/**
 * `PUT /api/channels/cloud`: one cloud channel per organization, replaced on every PUT. The access
 * token is sealed (AES-256-GCM under PARLEY_SECRET_KEY) before it reaches the database and is never
 * returned. A number or a business account already connected to another organization is refused
 * (409): provider webhooks are routed by them (messages by number, template updates by account), so
 * each must name exactly one tenant.
 */
export const putCloudChannel = (orgId: string, body: PutCloudChannelRequest) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const { box } = yield* MessagingResources
    const sealed = box.seal(body.accessToken)
    const rows = yield* Effect.tryPromise({
      try: () => sql<Array<StoredChannel>>`
        insert into messaging.channels (id, org_id, kind, phone_number_id, business_account_id, access_token_sealed)
        values (${newId("ch")}, ${orgId}, 'cloud', ${body.phoneNumberId}, ${body.businessAccountId}, ${sealed})
        on conflict (org_id, kind) do update set
          phone_number_id = excluded.phone_number_id,
          business_account_id = excluded.business_account_id,
          access_token_sealed = excluded.access_token_sealed,
          updated_at = now()
        returning *`,
      catch: (error) => error,
    }).pipe(
      Effect.catch((error): Effect.Effect<never, PhoneNumberTaken | BusinessAccountTaken> => {
        if (isUniqueViolation(error, "channels_phone_number_id_key")) return Effect.fail(new PhoneNumberTaken())
        if (isUniqueViolation(error, "channels_cloud_business_account_key")) {
          return Effect.fail(new BusinessAccountTaken())
        }
        return Effect.die(error)
      }),
    )
    return toChannel(rows[0] as StoredChannel)
  })

/**
 * `PUT /api/channels/bridge`: (re)configures the bridge and issues a fresh `inboundToken`, shown
 * this once. Only its SHA-256 digest is used to authenticate the bridge's posts; a sealed copy is
 * kept because the token is also the key that signs Parley's posts to the bridge. A PUT rotates it.
 */
export const putBridgeChannel = (orgId: string, body: PutBridgeChannelRequest) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const { box, allowPrivateUrls } = yield* MessagingResources
    const url = yield* assertPublicUrl(body.outboundUrl, { allowPrivate: allowPrivateUrls }).pipe(
      Effect.mapError((refused) => new InvalidOutboundUrl({ reason: refused.reason })),
    )
    const token = `pbt_${base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))}`
    const [row] = yield* Effect.promise(
      () => sql<Array<StoredChannel>>`
        insert into messaging.channels (id, org_id, kind, outbound_url, inbound_token_digest, inbound_token_sealed)
        values (${newId("ch")}, ${orgId}, 'bridge', ${url.href}, ${sha256Hex(token)}, ${box.seal(token)})
        on conflict (org_id, kind) do update set
          outbound_url = excluded.outbound_url,
          inbound_token_digest = excluded.inbound_token_digest,
          inbound_token_sealed = excluded.inbound_token_sealed,
          updated_at = now()
        returning *`,
    )
    return { ...toChannel(row as StoredChannel), inboundToken: token }
  })

/** The bridge channel a bearer token belongs to, by the token's digest. */
export const bridgeChannelByToken = (token: string) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const [row] = yield* Effect.promise(
      () => sql<Array<StoredChannel>>`
        select * from messaging.channels where kind = 'bridge' and inbound_token_digest = ${sha256Hex(token)}`,
    )
    return row
  })
