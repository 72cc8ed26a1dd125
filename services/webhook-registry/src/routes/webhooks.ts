import type { CreatedWebhook, EventName, ErrorIssue as ValidationIssue } from "@parley/contracts"
import { invalidRequest } from "@parley/platform"
import { Effect } from "effect"
import type { FastifyInstance, FastifyRequest } from "fastify"
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
import { orgOf, type RouteContext, requireAdmin } from "./context.ts"

const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
  const body = request.body
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest("body must be a JSON object", [{ path: "", message: "must be a JSON object" }])
  }
  return body as Record<string, unknown>
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
    done: () => {
      const first = issues[0]
      if (first !== undefined) throw invalidRequest(`${first.path} ${first.message}`, issues)
    },
  }
}

const idOf = (request: FastifyRequest): string => (request.params as { id: string }).id

/** CONTRACT.md §5: create, list, read, update and delete webhooks. */
export const registerWebhookRoutes = (app: FastifyInstance, ctx: RouteContext) => {
  const urlRules = { allowPrivate: ctx.allowPrivate, ...(ctx.resolver === undefined ? {} : { resolver: ctx.resolver }) }

  app.post("/api/org/webhooks", { preHandler: requireAdmin }, async (request, reply) => {
    const body = bodyOf(request)
    const issues = collect()
    if (body.url === undefined) issues.take({ ok: false, issue: { path: "url", message: "is required" } })
    const url = body.url === undefined ? undefined : issues.take(await Effect.runPromise(checkUrl(body.url, urlRules)))
    const secret = body.secret === undefined ? generateSecret() : issues.take(checkSecret(body.secret))
    const events: ReadonlyArray<EventName> | undefined =
      body.events === undefined ? catalogueNames() : issues.take(checkEvents(body.events))
    issues.done()
    const row = await ctx.run(
      ctx.store.create(orgOf(request), {
        url: url as string,
        events: events as ReadonlyArray<EventName>,
        sealedSecret: ctx.box.seal(secret as string),
      }),
    )
    const created: CreatedWebhook = {
      ...toWebhook(row),
      secret: secret as string,
      signingSecret: signingSecretOf(secret as string),
    }
    return reply.code(201).send(created)
  })

  app.get("/api/org/webhooks", async (request) => {
    const rows = await ctx.run(ctx.store.list(ctx.sql, orgOf(request)))
    return { data: rows.map(toWebhook) }
  })

  app.get("/api/org/webhooks/:id", async (request) =>
    toWebhook(await ctx.run(ctx.store.find(ctx.sql, orgOf(request), idOf(request)))),
  )

  app.put("/api/org/webhooks/:id", { preHandler: requireAdmin }, async (request) => {
    const body = bodyOf(request)
    // Another organization's webhook is answered as missing before its body is judged.
    await ctx.run(ctx.store.find(ctx.sql, orgOf(request), idOf(request)))
    const issues = collect()
    const changes: { -readonly [K in keyof WebhookChanges]: WebhookChanges[K] } = {}
    if (body.url !== undefined) changes.url = issues.take(await Effect.runPromise(checkUrl(body.url, urlRules)))
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
    issues.done()
    return toWebhook(await ctx.run(ctx.store.update(orgOf(request), idOf(request), changes)))
  })

  app.delete("/api/org/webhooks/:id", { preHandler: requireAdmin }, async (request, reply) => {
    await ctx.run(ctx.store.remove(orgOf(request), idOf(request)))
    return reply.code(204).send()
  })
}
