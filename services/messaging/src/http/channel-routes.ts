import { normalizePhone } from "@parley/contracts"
import { Effect, Option, Redacted } from "effect"
import { listChannels, toChannel } from "../channels/repository.ts"
import type { MessagingConfig } from "../config.ts"
import { InvalidCursor } from "../errors.ts"
import type { CloudIngress } from "../inbound/cloud-ingest.ts"
import { listSandboxOutbox, sandboxInbound, sandboxTemplateUpdate } from "../sandbox/api.ts"
import type { MessagingHandlers } from "./tenant.ts"

/**
 * The tenant routes that need the service's configuration or its provider ingress: the channel list
 * (with the callback URL and verify token to paste into the provider's settings, docs/contract.md §10.1)
 * and the sandbox's routes (§16), whose provider payloads go through `cloudIngress` like a real
 * provider's.
 */
export const channelHandlers = (
  config: Pick<MessagingConfig, "publicUrl" | "cloudVerifyToken">,
  cloudIngress: CloudIngress["Service"],
) =>
  ({
    listChannels: ({ principal }) =>
      listChannels(principal.orgId).pipe(
        Effect.map((channels) => ({
          data: channels.map(toChannel),
          cloudWebhook: {
            callbackUrl: `${config.publicUrl}/channels/cloud/webhook`,
            verifyToken: Option.getOrNull(Option.map(config.cloudVerifyToken, Redacted.value)),
          },
        })),
      ),

    sandboxInbound: ({ principal, body }) =>
      Effect.gen(function* () {
        const message = yield* body
        const customer = { from: normalizePhone(message.from), name: message.name, text: message.text }
        return yield* sandboxInbound(cloudIngress, principal.orgId, customer, new Date())
      }),

    sandboxTemplateUpdate: ({ principal, params, body }) =>
      Effect.gen(function* () {
        return yield* sandboxTemplateUpdate(cloudIngress, principal.orgId, params.id, yield* body, new Date())
      }),

    sandboxOutbox: ({ principal, query }) =>
      Effect.gen(function* () {
        const page = yield* listSandboxOutbox(principal.orgId, {
          limit: query.limit ?? 50,
          ...(query.phone === undefined ? {} : { phone: normalizePhone(query.phone) }),
          ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
        })
        return page ?? (yield* Effect.fail(new InvalidCursor()))
      }),
  }) satisfies Partial<MessagingHandlers>
