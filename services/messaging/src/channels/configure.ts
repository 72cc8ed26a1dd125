import { randomInt } from "node:crypto"
import type { OrgId, PutBridgeChannelRequest, PutCloudChannelRequest } from "@parley/contracts"
import { Database } from "@parley/db"
import { assertPublicUrl } from "@parley/egress"
import { base64UrlEncode, newId, sha256Hex } from "@parley/platform"
import { Effect, Option, Redacted } from "effect"
import { BridgeEgress } from "../bridge/bridge-egress.ts"
import { CloudProviders } from "../cloud/cloud-providers.ts"
import {
  BusinessAccountTaken,
  ChannelRefused,
  InvalidOutboundUrl,
  PhoneNumberTaken,
  ProviderUnavailable,
} from "../errors.ts"
import { sandboxNumericId } from "../sandbox/provider.ts"
import { findChannel, type StoredChannel, toChannel } from "./repository.ts"
import { TokenBox } from "./token-box.ts"

const isUniqueViolation = (error: unknown, constraint: string): boolean =>
  typeof error === "object" &&
  error !== null &&
  (error as { code?: unknown }).code === "23505" &&
  (error as { constraint_name?: unknown }).constraint_name === constraint

/**
 * `PUT /api/channels/cloud`: one cloud channel per organization, replaced on every PUT. A real one
 * is verified first (docs/contract.md §10.1): the provider is asked whether the token can read the number
 * (`GET /<version>/<phoneNumberId>`), and nothing is stored unless it can — a refusal is 400 naming
 * the field, an unreachable provider 503, and an existing channel stays as it was. That is also what
 * stops a tenant from claiming another business's number before it does. The access token is sealed
 * (AES-256-GCM under PARLEY_SECRET_KEY) before it reaches the database and is never returned. A
 * number or a business account already connected to another organization is refused (409):
 * provider webhooks are routed by them (messages by number, template updates by account), so each
 * must name exactly one tenant. `{ sandbox: true }` connects a sandbox channel instead (§16).
 */
export const putCloudChannel = (orgId: OrgId, body: PutCloudChannelRequest) =>
  "sandbox" in body ? putSandboxChannel(orgId) : putRealCloudChannel(orgId, body)

const putRealCloudChannel = (orgId: OrgId, body: Exclude<PutCloudChannelRequest, { sandbox: true }>) =>
  Effect.gen(function* () {
    const box = yield* TokenBox
    const { graph } = yield* CloudProviders
    const check = yield* graph.readPhoneNumber(body.phoneNumberId, Redacted.make(body.accessToken))
    if (check._tag === "Refused") return yield* new ChannelRefused({ field: check.field, detail: check.detail })
    if (check._tag === "Unavailable")
      return yield* new ProviderUnavailable({ detail: check.detail, rateLimited: false })
    return yield* storeCloudChannel(orgId, {
      sandbox: false,
      phoneNumberId: body.phoneNumberId,
      businessAccountId: body.businessAccountId,
      displayPhoneNumber: check.number.display_phone_number ?? null,
      accessTokenSealed: box.seal(body.accessToken),
    })
  })

/**
 * A sandbox channel: generated provider ids and a fictional display number (555-01xx), no token. It
 * replaces the organization's cloud channel, real or not; connecting a sandbox again keeps its ids.
 */
const putSandboxChannel = (orgId: OrgId) =>
  Effect.gen(function* () {
    const existing = yield* findChannel(orgId, "cloud")
    const kept = Option.isSome(existing) && existing.value.sandbox ? existing.value : undefined
    return yield* storeCloudChannel(orgId, {
      sandbox: true,
      phoneNumberId: kept?.phone_number_id ?? sandboxNumericId(),
      businessAccountId: kept?.business_account_id ?? sandboxNumericId(),
      displayPhoneNumber: kept?.display_phone_number ?? `+1 415-555-01${String(randomInt(0, 100)).padStart(2, "0")}`,
      accessTokenSealed: null,
    })
  })

const storeCloudChannel = (
  orgId: OrgId,
  channel: {
    sandbox: boolean
    phoneNumberId: string
    businessAccountId: string
    displayPhoneNumber: string | null
    accessTokenSealed: string | null
  },
) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const rows = yield* Effect.tryPromise({
      try: () => sql<Array<StoredChannel>>`
        insert into messaging.channels
          (id, org_id, kind, phone_number_id, business_account_id, access_token_sealed, sandbox,
           display_phone_number, verified_at)
        values (${newId("ch")}, ${orgId}, 'cloud', ${channel.phoneNumberId}, ${channel.businessAccountId},
                ${channel.accessTokenSealed}, ${channel.sandbox}, ${channel.displayPhoneNumber}, now())
        on conflict (org_id, kind) do update set
          phone_number_id = excluded.phone_number_id,
          business_account_id = excluded.business_account_id,
          access_token_sealed = excluded.access_token_sealed,
          sandbox = excluded.sandbox,
          display_phone_number = excluded.display_phone_number,
          verified_at = excluded.verified_at,
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
export const putBridgeChannel = (orgId: OrgId, body: PutBridgeChannelRequest) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const box = yield* TokenBox
    const { allowPrivateUrls } = yield* BridgeEgress
    const url = yield* assertPublicUrl(body.outboundUrl, { allowPrivate: allowPrivateUrls }).pipe(
      Effect.mapError((refused) => new InvalidOutboundUrl({ reason: refused.reason })),
    )
    const token = `pbt_${base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))}`
    const [row] = yield* Effect.promise(
      () => sql<Array<StoredChannel>>`
        insert into messaging.channels
          (id, org_id, kind, outbound_url, inbound_token_digest, inbound_token_sealed, verified_at)
        values (${newId("ch")}, ${orgId}, 'bridge', ${url.href}, ${sha256Hex(token)}, ${box.seal(token)}, now())
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
