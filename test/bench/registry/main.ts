/**
 * How fast the webhook registry's delivery log takes in the dispatcher's attempt records (its
 * `parley.dispatch.attempts.v1` consumer), against Postgres writing the same rows with nothing
 * else. See README.md in this folder.
 */
import { Bus, type OutgoingRecord, SingleNodeBus } from "@parley/bus"
import { AttemptRecord, encodeBusValue, type OrgId, Topics, type UserId } from "@parley/contracts"
import { Database } from "@parley/db"
import { freshDatabase } from "@parley/db/testing"
import { makeLogger, newId, signPrincipal } from "@parley/platform"
import { Effect, Exit, Layer, Scope } from "effect"
import { makeWebhookRegistryApp } from "../../../services/webhook-registry/src/app.ts"

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 20_000)
const WEBHOOKS = 4
const INTERNAL_SECRET = `bench-${crypto.randomUUID()}`

const waitFor = async (done: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("timed out: the run is not valid")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const db = await freshDatabase()
const scope = Effect.runSync(Scope.make())
try {
  const context = await Effect.runPromise(
    Layer.buildWithScope(SingleNodeBus.layer().pipe(Layer.provideMerge(Database.layer({ url: db.url }))), scope),
  )
  const { http: app } = await Effect.runPromiseWith(context)(
    makeWebhookRegistryApp({
      logger: makeLogger({ service: "webhook-registry", level: "warn" }),
      secretKey: Buffer.alloc(32, 3).toString("base64"),
      internalSecret: INTERNAL_SECRET,
      allowPrivate: true,
    }).pipe(Scope.provide(scope)),
  )
  const org = newId("org") as OrgId
  const principal = signPrincipal(INTERNAL_SECRET, {
    orgId: org,
    role: "admin",
    actor: { type: "user", userId: newId("usr") as UserId },
    requestId: newId("req"),
  })
  const webhooks: Array<string> = []
  for (let i = 0; i < WEBHOOKS; i++) {
    const created = await app.inject({
      method: "POST",
      url: "/api/org/webhooks",
      headers: { "x-parley-principal": principal },
      payload: { url: `https://receiver.example/${i}` },
    })
    webhooks.push(created.json().id)
  }
  // As the dispatcher writes them: every attempt 1, carrying its envelope; one in ten failed.
  const attempts = Array.from({ length: ATTEMPTS }, (_, i) => {
    const failed = i % 10 === 0
    return {
      deliveryId: newId("dlv"),
      webhookId: webhooks[i % WEBHOOKS],
      orgId: org,
      eventId: newId("evt"),
      event: "lead.created",
      attempt: 1,
      status: failed ? "failed" : "success",
      responseStatus: failed ? 503 : 200,
      error: failed ? "HTTP 503" : null,
      durationMs: 3,
      attemptedAt: new Date(Date.now() + i).toISOString(),
      envelope: {
        timestamp: new Date().toISOString(),
        data: { phone: "14155550100", name: "Ada", type: "GENERAL_INQUIRY", booking: null },
        reason: "event",
      },
    } as unknown as AttemptRecord
  })
  const records: Array<OutgoingRecord> = attempts.map((attempt) => ({
    topic: Topics.dispatchAttempts,
    key: attempt.webhookId,
    value: encodeBusValue(AttemptRecord, attempt),
  }))

  // Baseline: the same attempt rows and envelopes, into tables like the log's (indexes included),
  // in batches of 500, nothing else.
  await db.sql`create table bench_attempts (like webhook_registry.attempts including all)`
  await db.sql`create table bench_deliveries (like webhook_registry.deliveries including all)`
  const baselineStarted = performance.now()
  for (let i = 0; i < ATTEMPTS; i += 500) {
    const batch = attempts.slice(i, i + 500)
    await db.sql.begin(async (tx) => {
      await tx`insert into bench_attempts ${tx(
        batch.map((a) => ({
          delivery_id: a.deliveryId,
          attempt: a.attempt,
          webhook_id: a.webhookId,
          org_id: a.orgId,
          event_id: a.eventId,
          event: a.event,
          status: a.status,
          response_status: a.responseStatus,
          error: a.error,
          duration_ms: a.durationMs,
          attempted_at: a.attemptedAt,
        })),
      )}`
      await tx`insert into bench_deliveries ${tx(
        batch.map((a) => ({
          delivery_id: a.deliveryId,
          webhook_id: a.webhookId,
          org_id: a.orgId,
          event_id: a.eventId,
          event: a.event,
          event_timestamp: a.envelope?.timestamp,
          event_at: a.envelope?.timestamp,
          data: JSON.stringify(a.envelope?.data),
          reason: "event",
        })),
      )}`
    })
  }
  const baselinePerSecond = ATTEMPTS / ((performance.now() - baselineStarted) / 1000)

  // The registry: the records published on its bus, timed until every attempt is in its log.
  const started = performance.now()
  for (let i = 0; i < ATTEMPTS; i += 500) {
    await Effect.runPromiseWith(context)(Bus.use((bus) => bus.publish(records.slice(i, i + 500))))
  }
  const count = async (table: string) =>
    Number((await db.sql`select count(*)::int as n from ${db.sql(table)}`)[0]?.n ?? 0)
  await waitFor(async () => (await count("webhook_registry.attempts")) >= ATTEMPTS, 300_000)
  const registryPerSecond = ATTEMPTS / ((performance.now() - started) / 1000)

  const [totals] = await db.sql`select sum(failure_count)::int as failures from webhook_registry.webhooks`
  const envelopes = await count("webhook_registry.deliveries")
  if (totals?.failures !== ATTEMPTS / 10 || envelopes !== ATTEMPTS) {
    throw new Error(`the log is wrong: ${totals?.failures} failures, ${envelopes} envelopes`)
  }
  console.log(`registry delivery log, ${ATTEMPTS} attempt records (each with its envelope), ${WEBHOOKS} webhooks`)
  console.log(`| target | attempts/s |`)
  console.log(`|---|---|`)
  console.log(`| Postgres alone (the same rows, batches of 500) | ${baselinePerSecond.toFixed(0)} |`)
  console.log(`| the registry (bus → decode → log, status, failure count) | ${registryPerSecond.toFixed(0)} |`)
  console.log(`registry / Postgres alone: ${(registryPerSecond / baselinePerSecond).toFixed(2)}×`)
  console.log(JSON.stringify({ attempts: ATTEMPTS, baselinePerSecond, registryPerSecond }))
} finally {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await db.close()
}
