import type { CreatedWebhook, EventName, ErrorIssue as ValidationIssue } from "@parley/contracts"
import { type ApiError, invalidRequest } from "@parley/platform"
import { Effect } from "effect"
import type { FastifyRequest } from "fastify"
import { sameKey, signingSecretOf } from "../rotation.ts"
import {
  type Checked,
  catalogueNames,
  checkEnabled,
  checkEvents,
  checkSecret,
  checkUrl,
  generateSecret,
} from "../validation.ts"
import { toWebhook } from "../webhook-record.ts"
import type { WebhookChanges } from "../webhook-store.ts"
import { orgOf, type RegistryHandlers, type RouteContext } from "./context.ts"

const bodyOf = (request: FastifyRequest): Effect.Effect<Record<string, unknown>, ApiError> => {
  const body = request.body
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Effect.fail(invalidRequest("body must be a JSON object", [{ path: "", message: "must be a JSON object" }]))
  }
  return Effect.succeed(body as Record<string, unknown>)
}

/** Collects issues; throws one 400 naming every bad field. */
const collect = () => {
  const issues: Array<ValidationIssue> = []
  return {
    take: <A>(checked: Checked<A>): A | undefined => {
      if (checked.ok) return checked.value
      issues.push(checked.issue)
      return undefined
    },
    done: (): Effect.Effect<void, ApiError> => {
      const first = issues[0]
      return first === undefined ? Effect.void : Effect.fail(invalidRequest(`${first.path} ${first.message}`, issues))
    },
  }
}

/** CONTRACT.md §5: create, list, read, update and delete webhooks. */
export const webhookHandlers = (ctx: RouteContext) => {
  const urlRules = { allowPrivate: ctx.allowPrivate, ...(ctx.resolver === undefined ? {} : { resolver: ctx.resolver }) }
  return {
    createWebhook: ({ principal, request }) =>
      Effect.gen(function* () {
        const body = yield* bodyOf(request)
        const issues = collect()
        if (body.url === undefined) issues.take({ ok: false, issue: { path: "url", message: "is required" } })
        const url = body.url === undefined ? undefined : issues.take(yield* checkUrl(body.url, urlRules))
        const secret = body.secret === undefined ? generateSecret() : issues.take(checkSecret(body.secret))
        const events: ReadonlyArray<EventName> | undefined =
          body.events === undefined ? catalogueNames() : issues.take(checkEvents(body.events))
        yield* issues.done()
        const row = yield* ctx.store.create(orgOf(principal), {
          url: url as string,
          events: events as ReadonlyArray<EventName>,
          sealedSecret: ctx.box.seal(secret as string),
        })
        const created: CreatedWebhook = {
          ...toWebhook(row),
          secret: secret as string,
          signingSecret: signingSecretOf(secret as string),
        }
        return created
      }),

    listWebhooks: ({ principal }) =>
      ctx.store.list(ctx.sql, orgOf(principal)).pipe(Effect.map((rows) => ({ data: rows.map(toWebhook) }))),

    getWebhook: ({ principal, params }) =>
      ctx.store.find(ctx.sql, orgOf(principal), params.id).pipe(Effect.map(toWebhook)),

    updateWebhook: ({ principal, params, request }) =>
      Effect.gen(function* () {
        // Another organization's webhook is answered as missing before its body is judged.
        yield* ctx.store.find(ctx.sql, orgOf(principal), params.id)
        const body = yield* bodyOf(request)
        const issues = collect()
        const changes: { -readonly [K in keyof WebhookChanges]: WebhookChanges[K] } = {}
        if (body.url !== undefined) changes.url = issues.take(yield* checkUrl(body.url, urlRules))
        if (body.events !== undefined) changes.events = issues.take(checkEvents(body.events))
        if (body.enabled !== undefined) changes.enabled = issues.take(checkEnabled(body.enabled))
        if (body.secret !== undefined) {
          const secret = issues.take(checkSecret(body.secret))
          if (secret !== undefined) {
            changes.secret = {
              sealed: ctx.box.seal(secret),
              isCurrent: (currentSealed) => sameKey(ctx.box.open(currentSealed), secret),
            }
          }
        }
        yield* issues.done()
        return toWebhook(yield* ctx.store.update(orgOf(principal), params.id, changes))
      }),

    deleteWebhook: ({ principal, params }) => ctx.store.remove(orgOf(principal), params.id),
  } satisfies Partial<RegistryHandlers>
}
