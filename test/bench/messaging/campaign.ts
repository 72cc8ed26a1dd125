/**
 * A campaign end to end, exact across faults (README.md, "Campaign benchmark"): two messaging
 * processes (`services/messaging/src/main.ts`, as deployed) on a fresh database share one campaign
 * of BENCH_RECIPIENTS (100,000) recipients, a loopback stand-in for the provider's Graph API
 * refuses every BENCH_THROTTLE_EVERY-th send for throughput (429 / 130429 / 131056 in turn), and one
 * instance is SIGKILLed once a third of the campaign is sent and restarted at once (inside its
 * lease). Prints recipients/s against the pace set, provider calls/s, the CPU of the messaging
 * processes and of the database's Postgres backends per recipient, then proves the outcome: one
 * `campaign.completed`, each recipient accepted by the provider at most once, every `sent` one
 * exactly once, `sent + failed = totalRecipients`, no throttle counted a failure.
 *
 *   npm run bench -w @parley/bench -- messaging campaign
 *   BENCH_RECIPIENTS=100000 BENCH_RATE=1000 BENCH_THROTTLE_EVERY=10 BENCH_KILL=1 (defaults)
 *   BENCH_MESSAGING_MAIN=/other/checkout/services/messaging/src/main.ts measures another version
 */
import { createServer } from "node:http"
import { pathToFileURL } from "node:url"
import { freshDatabase } from "@parley/db/testing"
import { hmacSha256Hex, newId, signPrincipal } from "@parley/platform"
import { cpuSeconds } from "../gateway/cpu.ts"
import { freePort, startProcess, stopAll, waitUntilLive } from "../gateway/processes.ts"

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000)
const RATE = Number(process.env.BENCH_RATE ?? 1000)
const THROTTLE_EVERY = Number(process.env.BENCH_THROTTLE_EVERY ?? 10)
const KILL = (process.env.BENCH_KILL ?? "1") === "1"
const APP_SECRET = `bench-app-${crypto.randomUUID()}`
const INTERNAL_SECRET = `bench-internal-${crypto.randomUUID()}`
const PHONE_NUMBER_ID = "106540352242923"
const BUSINESS_ACCOUNT_ID = "102290129340399"

const repo = new URL("../../../", import.meta.url)
const messagingMain =
  process.env.BENCH_MESSAGING_MAIN === undefined
    ? new URL("services/messaging/src/main.ts", repo)
    : pathToFileURL(process.env.BENCH_MESSAGING_MAIN)

const THROTTLES = [
  { status: 429, body: { error: { message: "(#4) Application request limit reached", code: 4 } } },
  { status: 400, body: { error: { message: "(#130429) Rate limit hit", code: 130429 } } },
  { status: 400, body: { error: { message: "(#131056) Pair rate limit hit", code: 131056 } } },
]

/** The provider: accepts sends (a fresh wamid each), throttles a share, counts per recipient. */
const startProvider = async () => {
  const accepted = new Map<string, number>()
  let calls = 0
  let acceptedTotal = 0
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" })
        response.end(JSON.stringify(body))
      }
      if (request.url?.endsWith("/message_templates")) return reply(200, { id: "9001", status: "PENDING" })
      // Connecting asks whether the token can read the number (docs/contract.md §10.1).
      if (request.method === "GET" && /^\/[^/]+\/[0-9]+$/.test(request.url ?? "")) {
        const id = request.url?.split("/")[2]
        return reply(200, { id, display_phone_number: "+1 555-010-0000", verified_name: "Bench" })
      }
      if (!request.url?.endsWith("/messages")) return reply(404, { error: { message: "unknown", code: 100 } })
      calls++
      if (THROTTLE_EVERY > 0 && calls % THROTTLE_EVERY === 0) {
        const answer = THROTTLES[(calls / THROTTLE_EVERY) % THROTTLES.length] as (typeof THROTTLES)[number]
        return reply(answer.status, answer.body)
      }
      const { to } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { to: string }
      accepted.set(to, (accepted.get(to) ?? 0) + 1)
      acceptedTotal++
      reply(200, { messaging_product: "whatsapp", messages: [{ id: `wamid.bench.${calls}` }] })
    })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    calls: () => calls,
    acceptedTotal: () => acceptedTotal,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const main = async () => {
  const db = await freshDatabase()
  if (db.embedded) throw new Error("the campaign benchmark needs a real Postgres server")
  const provider = await startProvider()
  const env = (port: number) => ({
    DATABASE_URL: db.url,
    KAFKA_BROKERS: "",
    PARLEY_CLOUD_APP_SECRET: APP_SECRET,
    PARLEY_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
    PARLEY_INTERNAL_SECRET: INTERNAL_SECRET,
    PARLEY_CLOUD_API_URL: provider.url,
    PARLEY_MESSAGING_PORT: String(port),
    PARLEY_LOG_LEVEL: "warn",
    PARLEY_CLOUD_SEND_RATE: String(RATE),
    // The version before per-number pacing read a per-process rate: half each, the same total.
    PARLEY_CAMPAIGN_RATE_PER_SEC: String(Math.ceil(RATE / 2)),
  })
  try {
    const ports = [await freePort(), await freePort()]
    const urls = ports.map((port) => `http://127.0.0.1:${port}`)
    const instances = ports.map((port) => startProcess(messagingMain, [], env(port)))
    await Promise.all(urls.map((url) => waitUntilLive(`${url}/health/live`)))

    const orgId = newId("org")
    const call = async (method: string, path: string, body?: unknown) => {
      const principal = signPrincipal(INTERNAL_SECRET, {
        orgId,
        role: "admin",
        actor: { type: "api_key", keyId: newId("key"), scopes: [] },
        requestId: newId("req"),
      } as never)
      const response = await fetch(`${urls[1]}${path}`, {
        method,
        headers: {
          "x-parley-principal": principal,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    const connected = await call("PUT", "/api/channels/cloud", {
      phoneNumberId: PHONE_NUMBER_ID,
      businessAccountId: BUSINESS_ACCOUNT_ID,
      accessToken: "t",
    })
    if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${JSON.stringify(connected.body)}`)
    const template = await call("POST", "/api/templates", {
      name: "bench",
      language: "en_US",
      category: "MARKETING",
      components: [{ type: "BODY", text: "News for you" }],
    })
    if (template.status !== 201) throw new Error(`template: ${template.status}`)
    const approval = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: BUSINESS_ACCOUNT_ID,
          changes: [
            {
              field: "message_template_status_update",
              value: { event: "APPROVED", message_template_name: "bench", message_template_language: "en_US" },
            },
          ],
        },
      ],
    })
    const approved = await fetch(`${urls[1]}/channels/cloud/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": `sha256=${hmacSha256Hex(APP_SECRET, approval)}`,
      },
      body: approval,
    })
    if (approved.status !== 200) throw new Error(`approval: ${approved.status}`)

    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => `1415${String(i).padStart(7, "0")}`)
    const postgresPids = async () =>
      (
        await db.sql<Array<{ pid: number }>>`
          select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
      ).map((row) => row.pid)
    // Every process CPU second counted: the two instances, the one restarted, and the backends.
    const messagingCpu = new Map<number, number>()
    const sample = () => {
      for (const child of instances)
        if (child.pid !== undefined)
          messagingCpu.set(child.pid, cpuSeconds(child.pid) ?? messagingCpu.get(child.pid) ?? 0)
    }
    const cpuStart = new Map(instances.map((child) => [child.pid as number, cpuSeconds(child.pid) ?? 0]))
    const pgStart = new Map((await postgresPids()).map((p) => [p, cpuSeconds(p) ?? 0]))
    const pgSeen = new Map(pgStart)
    const samplePg = async () => {
      for (const p of await postgresPids()) pgSeen.set(p, cpuSeconds(p) ?? pgSeen.get(p) ?? 0)
    }

    const created = await call("POST", "/api/campaigns", {
      name: "Bench",
      template: { name: "bench", language: "en_US" },
      recipients,
    })
    if (created.status !== 202)
      throw new Error(`campaign: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`)
    const id = String(created.body.id)
    const startedAt = performance.now()
    console.log(
      `campaign benchmark: ${RECIPIENTS} recipients, pace ${RATE}/s per number, 2 instances, every ${THROTTLE_EVERY}th send throttled, ${KILL ? "one SIGKILL + restart at a third" : "no kill"}`,
    )
    let killed = !KILL
    let done: { status: string; sent: number; failed: number; totalRecipients: number } | undefined
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      sample()
      await samplePg()
      const campaign = (await call("GET", `/api/campaigns/${id}`)).body as typeof done & {}
      if (!killed && campaign.sent >= RECIPIENTS / 3) {
        killed = true
        const victim = instances[0]
        victim?.kill("SIGKILL")
        console.log(`  SIGKILL instance 1 at ${campaign.sent} sent, restarted at once`)
        instances.push(startProcess(messagingMain, [], env(ports[0] as number)))
        cpuStart.set(instances.at(-1)?.pid as number, 0)
      }
      if (campaign.status === "completed") {
        done = campaign
        break
      }
    }
    const seconds = (performance.now() - startedAt) / 1000
    sample()
    await samplePg()
    let messagingSeconds = 0
    for (const [pid, end] of messagingCpu) messagingSeconds += end - (cpuStart.get(pid) ?? 0)
    let pgSeconds = 0
    for (const [pid, end] of pgSeen) pgSeconds += end - (pgStart.get(pid) ?? 0)

    const completed = await db.sql<Array<{ value: string }>>`
      select value from parley_bus.records where topic = 'parley.events.campaign.v1' and key = ${orgId}`
    const rows = await db.sql<Array<{ phone: string; state: string; error: string | null }>>`
      select phone, state, error from messaging.campaign_recipients where campaign_id = ${id}`
    const problems: Array<string> = []
    if (completed.length !== 1) problems.push(`${completed.length} campaign.completed events`)
    if (done.sent + done.failed !== done.totalRecipients) problems.push("sent + failed ≠ totalRecipients")
    for (const row of rows) {
      const times = provider.accepted.get(row.phone) ?? 0
      if (times > 1) problems.push(`${row.phone} accepted ${times} times`)
      if (row.state === "sent" && times !== 1) problems.push(`${row.phone} sent but accepted ${times} times`)
      if (row.state === "failed" && !String(row.error).startsWith("outcome unknown")) {
        problems.push(`${row.phone} failed: ${row.error}`)
      }
    }
    const throttled = provider.calls() - provider.acceptedTotal()
    console.log(
      [
        `  completed in ${seconds.toFixed(1)} s: ${done.sent} sent, ${done.failed} failed (outcome unknown at the kill), ${throttled} throttled and retried`,
        `  recipients/s ${(RECIPIENTS / seconds).toFixed(0)} against the pace of ${RATE}/s (${((RECIPIENTS / seconds / RATE) * 100).toFixed(1)} %); provider calls/s ${(provider.calls() / seconds).toFixed(0)}`,
        `  CPU per recipient: messaging ${Math.round((messagingSeconds * 1e6) / RECIPIENTS)} µs, Postgres ${Math.round((pgSeconds * 1e6) / RECIPIENTS)} µs`,
        problems.length === 0
          ? "  exact: one completion, nobody accepted twice, every sent one accepted once"
          : `  NOT EXACT: ${problems.slice(0, 10).join("; ")}`,
      ].join("\n"),
    )
    if (problems.length > 0) process.exitCode = 1
  } finally {
    await stopAll()
    await provider.close()
    await db.close()
  }
}

await main()
