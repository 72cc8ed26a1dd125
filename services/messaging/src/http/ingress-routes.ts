import { constantTimeEqual, hmacSha256Hex } from "@parley/platform"
import { Effect, Option, Redacted, Schema } from "effect"
import type { FastifyRequest } from "fastify"
import { bridgeChannelByToken } from "../channels/configure.ts"
import type { MessagingConfig } from "../config.ts"
import { BridgeTokenRefused, InvalidInput, InvalidSignature, NotFound } from "../errors.ts"
import { ingestBridgeMessage, ingestBridgeStatus } from "../inbound/bridge-ingress.ts"
import { acceptProviderPayload } from "../inbound/cloud-accept.ts"
import type { CloudIngress } from "../inbound/cloud-ingest.ts"
import { MessagingMetrics } from "../metrics.ts"
import type { MessagingHandlers } from "./tenant.ts"

const VerifyQuery = Schema.Struct({
  "hub.mode": Schema.optionalKey(Schema.String),
  "hub.verify_token": Schema.optionalKey(Schema.String),
  "hub.challenge": Schema.optionalKey(Schema.String),
})

/** `X-Hub-Signature-256: sha256=<hex>` over the raw body, compared in constant time. */
export const cloudSignatureValid = (appSecret: string, rawBody: Uint8Array, header: unknown): boolean => {
  if (typeof header !== "string" || !header.startsWith("sha256=")) return false
  return constantTimeEqual(header.slice(7).toLowerCase(), hmacSha256Hex(appSecret, rawBody))
}

/**
 * The provider's JSON with every U+0000 dropped from its strings. Postgres text cannot hold NUL, so
 * a message carrying one would fail its insert on every redelivery and the provider would retry it
 * for days; a NUL carries nothing a reader could see, so it is removed rather than refused. Only a
 * body that spells the escape can hold one: the reviver runs for no other.
 */
const parseProviderJson = (text: string): unknown =>
  /\\u0000/i.test(text)
    ? JSON.parse(text, (_key, value: unknown) => (typeof value === "string" ? value.replaceAll("\0", "") : value))
    : JSON.parse(text)

const withoutNul = <A extends Record<string, unknown>>(body: A): A =>
  Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, typeof value === "string" ? value.replaceAll("\0", "") : value]),
  ) as A

const bearerOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization
  if (typeof header !== "string") return undefined
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match?.[1]
}

/**
 * Provider traffic (docs/contract.md §10): unauthenticated by the gateway, authenticated here by the
 * provider's signature (cloud) or the channel's bearer token (bridge). Cloud payloads are checked,
 * parsed and decoded per request, then committed through `cloudIngress` together with whatever
 * other payloads arrive meanwhile; the 200 waits for that commit.
 */
export const ingressHandlers = (
  config: Pick<MessagingConfig, "cloudAppSecret" | "cloudVerifyToken">,
  cloudIngress: CloudIngress["Service"],
) => {
  const bridgeChannel = (request: FastifyRequest) =>
    Effect.gen(function* () {
      const token = bearerOf(request)
      if (token === undefined) return yield* Effect.fail(new BridgeTokenRefused({ reason: "missing" }))
      const channel = yield* bridgeChannelByToken(token)
      if (channel === undefined) return yield* Effect.fail(new BridgeTokenRefused({ reason: "unknown" }))
      return channel
    })

  return {
    cloudWebhookVerify: ({ request, reply }) =>
      Effect.sync(() => {
        const query = Schema.decodeUnknownOption(VerifyQuery)(request.query)
        const expected = Option.map(config.cloudVerifyToken, Redacted.value)
        const given = Option.flatMap(query, (q) => Option.fromNullishOr(q["hub.verify_token"]))
        const challenge = Option.flatMap(query, (q) => Option.fromNullishOr(q["hub.challenge"]))
        const mode = Option.flatMap(query, (q) => Option.fromNullishOr(q["hub.mode"]))
        const accepted =
          Option.isSome(expected) &&
          Option.isSome(given) &&
          Option.isSome(challenge) &&
          Option.getOrUndefined(mode) === "subscribe" &&
          constantTimeEqual(given.value, expected.value)
        // The contract fixes only the status; no code in its closed list names this case, so the body
        // reuses `unauthorized` (what it is) under the 403 the provider's protocol expects.
        if (!accepted) return reply.code(403).send({ error: "Verification token mismatch", code: "unauthorized" })
        return reply.code(200).type("text/plain; charset=utf-8").send(challenge.value)
      }),

    cloudWebhook: ({ body, request }) =>
      Effect.gen(function* () {
        const raw = yield* body
        const secret = config.cloudAppSecret
        if (
          Option.isNone(secret) ||
          !cloudSignatureValid(Redacted.value(secret.value), raw, request.headers["x-hub-signature-256"])
        ) {
          return yield* Effect.fail(new InvalidSignature())
        }
        const json = yield* Effect.try({
          try: () => parseProviderJson(raw.toString("utf8")),
          catch: () => new InvalidInput({ what: "malformed JSON body" }),
        })
        yield* acceptProviderPayload(cloudIngress, json, new Date())
        return { received: true }
      }),

    bridgeInbound: ({ body, request }) =>
      Effect.gen(function* () {
        const channel = yield* bridgeChannel(request)
        const message = withoutNul(yield* body)
        const recorded = yield* ingestBridgeMessage(channel.org_id, message, new Date())
        if (recorded) (yield* MessagingMetrics).inbound.inc({ channel: "bridge" })
        return { received: true, duplicate: !recorded }
      }),

    bridgeStatus: ({ body, request }) =>
      Effect.gen(function* () {
        const channel = yield* bridgeChannel(request)
        const status = withoutNul(yield* body)
        const outcome = yield* ingestBridgeStatus(channel.org_id, status, new Date())
        // docs/contract.md §1: an unknown resource (or another organization's) is 404 `not_found`.
        if (outcome === "unknown") return yield* new NotFound()
        if (outcome === "new") (yield* MessagingMetrics).statuses.inc({ channel: "bridge" })
        return { received: true, duplicate: outcome === "seen" }
      }),
  } satisfies Partial<MessagingHandlers>
}
