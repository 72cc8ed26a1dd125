/**
 * How long one deterministic assistant turn takes, sequentially: `POST /api/public/chat` injected
 * into the assistant's own Fastify app on real Postgres and the single-node bus (everything a turn
 * does: load the session and settings, read the message, ask the calendar, store the turn, record
 * the lead and its event), against a baseline in the same run: an injected request that only reads
 * the booking settings (`GET /api/bookings/settings`: the same HTTP path, principal check and one
 * query). The CPU time this process spends on each turn (the service's own work, not Postgres's)
 * is printed too: unlike the wall clock, it hardly moves with the neighbours' load. See README.md in
 * this folder.
 */
import { SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { freshDatabase } from "@parley/db/testing"
import { makeLogger, newId, signPrincipal } from "@parley/platform"
import { Effect, Layer, Scope } from "effect"
import { makeAssistantApp } from "../../../services/assistant/src/app.ts"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40)
const INTERNAL_SECRET = `bench-${crypto.randomUUID()}`

/** Conversations as visitors write them, in the five languages: questions, leads, bookings. */
const CONVERSATIONS: ReadonlyArray<ReadonlyArray<string>> = [
  ["Hi, what are your opening hours?", "do you have parking?", "thanks"],
  ["hi im sarah, can you call me back on 415-555-0134?", "thanks!"],
  ["I'd like to book an appointment next tuesday", "10:30 please", "Dana", "+1 415 555 0142"],
  ["my order number is 4839201745 and it has not arrived", "can someone call me? 415 555 0177"],
  ["Hola, quiero una cita para mañana", "a las 11", "soy Ana, 612 345 678"],
  ["Hallo, was kostet ein Haarschnitt?", "bitte rufen Sie mich an: 0171 2345678"],
  ["Bonjour, je voudrais une démo de votre produit", "je m'appelle Claire, 06 12 34 56 78"],
  ["Olá, queria marcar uma consulta na sexta às 15h", "meu nome é João, 912 345 678"],
]

const quantile = (sorted: ReadonlyArray<number>, q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

const db = await freshDatabase()
const scope = Effect.runSync(Scope.make())
try {
  const context = await Effect.runPromise(
    Layer.buildWithScope(SingleNodeBus.layer().pipe(Layer.provideMerge(Database.layer({ url: db.url }))), scope),
  )
  const { app } = await Effect.runPromiseWith(context)(
    makeAssistantApp({
      logger: makeLogger({ service: "assistant", level: "warn" }),
      internalSecret: INTERNAL_SECRET,
      background: false,
    }).pipe(Scope.provide(scope)),
  )
  const orgId = newId("org")
  const principal = (role: "admin" | "member", scopes: Array<string>) =>
    signPrincipal(INTERNAL_SECRET, {
      orgId,
      role,
      actor: { type: "api_key", keyId: newId("key"), scopes },
      requestId: newId("req"),
    } as never)
  const widget = principal("member", ["chat:write", "chat:read", "bookings:read", "bookings:write"])
  const admin = principal("admin", [])

  const cpu: Array<number> = []
  const turn = async (message: string, sessionId: string | undefined): Promise<[number, string]> => {
    const cpuStarted = process.cpuUsage()
    const started = performance.now()
    const response = await app.inject({
      method: "POST",
      url: "/api/public/chat",
      headers: { "x-parley-principal": widget, "content-type": "application/json" },
      payload: JSON.stringify(sessionId === undefined ? { message } : { message, sessionId }),
    })
    const took = performance.now() - started
    const used = process.cpuUsage(cpuStarted)
    cpu.push((used.user + used.system) / 1000)
    if (response.statusCode !== 200) throw new Error(`turn answered ${response.statusCode}: ${response.body}`)
    return [took, (response.json() as { sessionId: string }).sessionId]
  }
  const baseline = async (): Promise<number> => {
    const started = performance.now()
    const response = await app.inject({
      method: "GET",
      url: "/api/bookings/settings",
      headers: { "x-parley-principal": admin },
    })
    const took = performance.now() - started
    if (response.statusCode !== 200) throw new Error(`baseline answered ${response.statusCode}`)
    return took
  }

  // Warm-up: JIT, connection pool, the first migration-time caches.
  for (const conversation of CONVERSATIONS) {
    let session: string | undefined
    for (const message of conversation) [, session] = await turn(message, session)
    await baseline()
  }
  cpu.length = 0
  const turns: Array<number> = []
  const baselines: Array<number> = []
  for (let round = 0; round < ROUNDS; round++) {
    for (const conversation of CONVERSATIONS) {
      let session: string | undefined
      for (const message of conversation) {
        const [took, id] = await turn(message, session)
        session = id
        turns.push(took)
        baselines.push(await baseline())
      }
    }
  }
  turns.sort((a, b) => a - b)
  baselines.sort((a, b) => a - b)
  const row = (name: string, sorted: ReadonlyArray<number>) =>
    `${name.padEnd(28)} n=${sorted.length}  min ${sorted[0]?.toFixed(2)}  p50 ${quantile(sorted, 0.5).toFixed(2)}  p99 ${quantile(sorted, 0.99).toFixed(2)}  max ${sorted.at(-1)?.toFixed(2)} ms`
  console.log(row("deterministic turn", turns))
  cpu.sort((a, b) => a - b)
  console.log(row("  its CPU in this process", cpu))
  console.log(row("baseline (settings read)", baselines))
  console.log(
    `ratio turn/baseline: p50 ${(quantile(turns, 0.5) / quantile(baselines, 0.5)).toFixed(2)}×, p99 ${(quantile(turns, 0.99) / quantile(baselines, 0.99)).toFixed(2)}×`,
  )
  console.log(`target: p99 ≤ 15 ms — ${quantile(turns, 0.99) <= 15 ? "met" : "NOT met"}`)
} finally {
  await Effect.runPromise(Scope.close(scope, { _tag: "Success", value: undefined } as never))
  await db.close()
}
