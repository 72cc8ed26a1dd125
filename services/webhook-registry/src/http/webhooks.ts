import type { CreatedWebhook } from "@parley/contracts"
import { Effect } from "effect"
import { sameKey, signingSecretOf } from "../webhooks/rotation.ts"
import { catalogueNames, checkPublicUrl, generateSecret, uniqueEvents } from "../webhooks/validation.ts"
import { toWebhook } from "../webhooks/webhook-record.ts"
import { type WebhookChanges, WebhookStore } from "../webhooks/webhook-store.ts"
import type { RegistryHandlers, RouteContext } from "./context.ts"

/** docs/contract.md §5: create, list, read, update and delete webhooks. */
export const webhookHandlers = (ctx: RouteContext) => {
  const urlRules = { allowPrivate: ctx.allowPrivate, ...(ctx.resolver === undefined ? {} : { resolver: ctx.resolver }) }
  return {
    createWebhook: ({ principal, body }) =>
      Effect.gen(function* () {
        const request = yield* body
        const url = yield* checkPublicUrl(request.url, urlRules)
        const secret = request.secret ?? generateSecret()
        const row = yield* (yield* WebhookStore).create(principal.orgId, {
          url,
          events: request.events === undefined ? catalogueNames() : uniqueEvents(request.events),
          sealedSecret: ctx.box.seal(secret),
        })
        const created: CreatedWebhook = { ...toWebhook(row), secret, signingSecret: signingSecretOf(secret) }
        return created
      }),

    listWebhooks: ({ principal }) =>
      WebhookStore.use((store) => store.list(principal.orgId)).pipe(
        Effect.map((rows) => ({ data: rows.map(toWebhook) })),
      ),

    getWebhook: ({ principal, params }) =>
      WebhookStore.use((store) => store.find(principal.orgId, params.id)).pipe(Effect.map(toWebhook)),

    updateWebhook: ({ principal, params, body }) =>
      Effect.gen(function* () {
        // Another organization's webhook is answered as missing before its body is judged.
        yield* (yield* WebhookStore).find(principal.orgId, params.id)
        const request = yield* body
        const changes: { -readonly [K in keyof WebhookChanges]: WebhookChanges[K] } = {}
        if (request.url !== undefined) changes.url = yield* checkPublicUrl(request.url, urlRules)
        if (request.events !== undefined) changes.events = uniqueEvents(request.events)
        if (request.enabled !== undefined) changes.enabled = request.enabled
        const secret = request.secret
        if (secret !== undefined) {
          changes.secret = {
            sealed: ctx.box.seal(secret),
            isCurrent: (currentSealed) => sameKey(ctx.box.open(currentSealed), secret),
          }
        }
        return toWebhook(yield* (yield* WebhookStore).update(principal.orgId, params.id, changes))
      }),

    deleteWebhook: ({ principal, params }) => WebhookStore.use((store) => store.remove(principal.orgId, params.id)),
  } satisfies Partial<RegistryHandlers>
}
