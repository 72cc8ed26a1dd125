/**
 * Messaging's cloud ingress, in one run (README.md): a bare Fastify that only checks the webhook
 * signature against the real messaging service (`services/messaging/src/main.ts` in its own
 * process, on a fresh database, single-node bus) receiving signed provider payloads — one inbound
 * text message each, distinct message ids, and a share of status reports for sent messages. Prints
 * payloads/s, p50/p99, the ratio, messaging's average batch size and CPU per payload, then checks
 * that every accepted payload's rows and bus records are there.
 *
 *   npm run bench -w @parley/bench -- messaging
 *
 * `npm run bench -w @parley/bench -- messaging campaign` runs the campaign benchmark instead
 * (`campaign.ts`).
 */
import { pathToFileURL } from "node:url"
import { Topics } from "@parley/contracts"
import { freshDatabase } from "@parley/db/testing"
import { hmacSha256Hex, newId } from "@parley/platform"
import { cpuSeconds } from "../gateway/cpu.ts"
import { freePort, startProcess, stopAll, waitUntilLive } from "../gateway/processes.ts"
import { type DeliveryRun, deliver, type SignedDelivery } from "./load.ts"

const PAYLOADS = Number(process.env.BENCH_PAYLOADS ?? 10_000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const WARMUP_PAYLOADS = 1_000
/** Every STATUS_EVERY-th payload is a status report (`delivered`) for a message Parley sent; 0 = none. */
const STATUS_EVERY = Number(process.env.BENCH_STATUS_EVERY ?? 5)
const APP_SECRET = `bench-app-${crypto.randomUUID()}`
const INTERNAL_SECRET = `bench-internal-${crypto.randomUUID()}`
const PHONE_NUMBER_ID = "106540352242922"
const BUSINESS_ACCOUNT_ID = "102290129340398"
const WEBHOOK_PATH = "/channels/cloud/webhook"

const repo = new URL("../../../", import.meta.url)

/** The provider's envelope around one `messages` change of the bench's number. */
const messagesChange = (value: Record<string, unknown>): string =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: BUSINESS_ACCOUNT_ID,
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: PHONE_NUMBER_ID },
              ...value,
            },
            field: "messages",
          },
        ],
      },
    ],
  })

const customer = (n: number) => `1631555${String(n % 1_000).padStart(4, "0")}`
const now = () => String(Math.floor(Date.now() / 1000))

/** What the provider posts for one customer text (its documented example's shape). */
const inboundBody = (n: number): string =>
  messagesChange({
    contacts: [{ profile: { name: `Customer ${n % 1_000}` }, wa_id: customer(n) }],
    messages: [
      {
        from: customer(n),
        id: `wamid.bench.in.${n}`,
        timestamp: now(),
        text: { body: `Hello, is my order ${n} on its way?` },
        type: "text",
      },
    ],
  })

/** A `delivered` report for the n-th message Parley sent (seeded before the run). */
const statusBody = (n: number): string =>
  messagesChange({
    statuses: [
      {
        id: `wamid.bench.out.${n}`,
        status: "delivered",
        timestamp: now(),
        recipient_id: customer(n),
        conversation: { id: "c0ffee", origin: { type: "service" } },
        pricing: { billable: true, pricing_model: "CBP", category: "service" },
      },
    ],
  })

interface Delivery extends SignedDelivery {
  readonly kind: "inbound" | "status"
}

/** Builds and signs the next `count` payloads; counters run across calls so every id is new. */
const makeDeliveries = (() => {
  let inbound = 0
  let statuses = 0
  let sequence = 0
  return (count: number): Array<Delivery> =>
    Array.from({ length: count }, () => {
      sequence++
      const isStatus = STATUS_EVERY > 0 && sequence % STATUS_EVERY === 0
      const body = isStatus ? statusBody(statuses++) : inboundBody(inbound++)
      return { kind: isStatus ? "status" : "inbound", body, signature: `sha256=${hmacSha256Hex(APP_SECRET, body)}` }
    })
})()

/** `parley_messaging_cloud_ingress_batch_payloads` sum and count, if the service exports it. */
const batchHistogram = async (metricsUrl: string): Promise<{ sum: number; count: number } | undefined> => {
  const text = await (await fetch(metricsUrl)).text()
  const read = (suffix: string) => {
    const pattern = new RegExp(`^parley_messaging_cloud_ingress_batch_payloads_${suffix}(?:\\{[^}]*\\})? (\\S+)$`, "gm")
    let total: number | undefined
    for (const match of text.matchAll(pattern)) total = (total ?? 0) + Number(match[1])
    return total
  }
  const sum = read("sum")
  const count = read("count")
  return sum === undefined || count === undefined ? undefined : { sum, count }
}

interface Measured extends DeliveryRun {
  readonly cpuMicrosPerPayload: number
  readonly postgresMicrosPerPayload?: number
  readonly averageBatch?: number
}

const median = (rounds: ReadonlyArray<Measured>): Measured => {
  const sorted = [...rounds].sort((a, b) => a.payloadsPerSecond - b.payloadsPerSecond)
  return sorted[Math.floor(sorted.length / 2)] as Measured
}

const main = async () => {
  const db = await freshDatabase()
  if (db.embedded) throw new Error("the messaging benchmark needs a real Postgres server")
  try {
    const [barePort, messagingPort] = await Promise.all([freePort(), freePort()])
    const bareUrl = `http://127.0.0.1:${barePort}`
    const messagingUrl = `http://127.0.0.1:${messagingPort}`
    const bare = startProcess(new URL("bare-webhook.ts", import.meta.url), [String(barePort), APP_SECRET])
    // BENCH_MESSAGING_MAIN=/path/to/other/checkout/services/messaging/src/main.ts measures another version.
    const messagingMain =
      process.env.BENCH_MESSAGING_MAIN === undefined
        ? new URL("services/messaging/src/main.ts", repo)
        : pathToFileURL(process.env.BENCH_MESSAGING_MAIN)
    const messaging = startProcess(messagingMain, [], {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: "",
      PARLEY_CLOUD_APP_SECRET: APP_SECRET,
      PARLEY_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
      PARLEY_INTERNAL_SECRET: INTERNAL_SECRET,
      PARLEY_CLOUD_API_URL: "http://127.0.0.1:9",
      PARLEY_MESSAGING_PORT: String(messagingPort),
      PARLEY_LOG_LEVEL: "warn",
      // e.g. BENCH_MESSAGING_EXEC_ARGV="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile messaging.
      ...(process.env.BENCH_MESSAGING_EXEC_ARGV === undefined
        ? {}
        : { BENCH_EXEC_ARGV: process.env.BENCH_MESSAGING_EXEC_ARGV }),
    })
    await Promise.all([waitUntilLive(`${bareUrl}/health`), waitUntilLive(`${messagingUrl}/health/live`)])

    const orgId = newId("org")
    // The channel as a verified PUT stores it: the provider is not part of what is measured, so its
    // confirmation that the token can read the number (docs/contract.md §10.1) is taken as given.
    await db.sql`
      insert into messaging.channels (id, org_id, kind, phone_number_id, business_account_id, verified_at)
      values (${newId("ch")}, ${orgId}, 'cloud', ${PHONE_NUMBER_ID}, ${BUSINESS_ACCOUNT_ID}, now())`

    // The messages Parley "sent", whose delivery reports are part of the load.
    const sent = STATUS_EVERY > 0 ? Math.ceil((WARMUP_PAYLOADS + PAYLOADS * ROUNDS) / STATUS_EVERY) + 1 : 0
    await db.sql`
      insert into messaging.messages (id, org_id, channel, direction, phone, type, text, provider_message_id, status)
      select 'msg_bench_out_' || n, ${orgId}, 'cloud', 'outbound', '1631555' || lpad((n % 1000)::text, 4, '0'),
             'text', 'Your order is on its way', 'wamid.bench.out.' || n, 'sent'
      from generate_series(0, ${sent} - 1) as n`

    const postgresPids = async () =>
      (
        await db.sql<Array<{ pid: number }>>`
          select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
      ).map((row) => row.pid)

    const all: Array<Delivery> = []
    const measure = async (target: "bare" | "messaging", deliveries: Array<Delivery>): Promise<Measured> => {
      const pid = target === "bare" ? bare.pid : messaging.pid
      const cpuBefore = cpuSeconds(pid) ?? 0
      const pgBefore = new Map((await postgresPids()).map((p) => [p, cpuSeconds(p) ?? 0]))
      const batchesBefore = target === "messaging" ? await batchHistogram(`${messagingUrl}/metrics`) : undefined
      const run = await deliver(target === "bare" ? bareUrl : messagingUrl, WEBHOOK_PATH, deliveries, CONCURRENCY)
      const cpuMicrosPerPayload = Math.round((((cpuSeconds(pid) ?? 0) - cpuBefore) * 1e6) / run.total)
      if (target === "bare") return { ...run, cpuMicrosPerPayload }
      all.push(...deliveries.filter((_, i) => run.acceptedMask[i]))
      let pgSeconds = 0
      for (const p of await postgresPids()) pgSeconds += (cpuSeconds(p) ?? 0) - (pgBefore.get(p) ?? 0)
      const batchesAfter = await batchHistogram(`${messagingUrl}/metrics`)
      const averageBatch =
        batchesAfter === undefined
          ? undefined
          : (batchesAfter.sum - (batchesBefore?.sum ?? 0)) /
            Math.max(1, batchesAfter.count - (batchesBefore?.count ?? 0))
      return {
        ...run,
        cpuMicrosPerPayload,
        postgresMicrosPerPayload: Math.round((pgSeconds * 1e6) / run.total),
        ...(averageBatch === undefined ? {} : { averageBatch }),
      }
    }

    console.log(
      `messaging ingress benchmark: ${CONCURRENCY} concurrent senders, ${ROUNDS} interleaved rounds of ${PAYLOADS} payloads per target (every ${STATUS_EVERY}th a status report), after ${WARMUP_PAYLOADS} warm-up payloads`,
    )
    await measure("bare", makeDeliveries(WARMUP_PAYLOADS))
    await measure("messaging", makeDeliveries(WARMUP_PAYLOADS))
    const rounds = { bare: [] as Array<Measured>, messaging: [] as Array<Measured> }
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await measure("bare", makeDeliveries(PAYLOADS)))
      rounds.messaging.push(await measure("messaging", makeDeliveries(PAYLOADS)))
    }
    const bareMedian = median(rounds.bare)
    const messagingMedian = median(rounds.messaging)

    const columns = [
      "target",
      "payloads/s",
      "p50 ms",
      "p99 ms",
      "CPU µs/payload",
      "PG µs/payload",
      "avg batch",
      "accepted",
    ]
    const cells = (label: string, r: Measured) => [
      label,
      r.payloadsPerSecond.toFixed(0),
      r.p50Ms.toFixed(1),
      r.p99Ms.toFixed(1),
      String(r.cpuMicrosPerPayload),
      r.postgresMicrosPerPayload === undefined ? "" : String(r.postgresMicrosPerPayload),
      r.averageBatch === undefined ? "n/a" : r.averageBatch.toFixed(1),
      `${r.accepted}/${r.total}`,
    ]
    const line = (values: ReadonlyArray<string>) =>
      `| ${values.map((value, i) => (i === 0 ? value.padEnd(30) : value.padStart(columns[i]?.length ?? 0))).join(" | ")} |`
    console.log("")
    console.log(line(columns))
    console.log(line(columns.map((name, i) => "-".repeat(i === 0 ? 30 : name.length))))
    console.log(line(cells("bare Fastify (signature only)", bareMedian)))
    console.log(line(cells("messaging (real service)", messagingMedian)))
    console.log("")
    console.log(
      `messaging / bare throughput: ${(messagingMedian.payloadsPerSecond / bareMedian.payloadsPerSecond).toFixed(2)}×`,
    )
    console.log(
      `every round (payloads/s): bare ${rounds.bare.map((r) => r.payloadsPerSecond.toFixed(0)).join(" / ")}; messaging ${rounds.messaging
        .map(
          (r) =>
            `${r.payloadsPerSecond.toFixed(0)} (batch ${r.averageBatch?.toFixed(1) ?? "n/a"}, ${r.cpuMicrosPerPayload} µs)`,
        )
        .join(" / ")}`,
    )
    const refused = rounds.messaging.flatMap((r) => Object.entries(r.failures))
    if (refused.length > 0) console.log(`messaging answers other than 200 (status: count): ${JSON.stringify(refused)}`)

    // Nothing accepted may be missing: its row, and its bus records, committed before the 200.
    const inbound = all.filter((d) => d.kind === "inbound").length
    const statuses = all.length - inbound
    const [stored] = await db.sql<Array<{ n: number }>>`
      select count(*)::int as n from messaging.messages
      where org_id = ${orgId} and direction = 'inbound' and provider_message_id like 'wamid.bench.in.%'`
    const [delivered] = await db.sql<Array<{ n: number }>>`
      select count(*)::int as n from messaging.message_statuses where org_id = ${orgId} and status = 'delivered'`
    const [events] = await db.sql<Array<{ inbound: number; status: number }>>`
      select count(*) filter (where value::jsonb ->> 'event' = 'message.inbound')::int as inbound,
             count(*) filter (where value::jsonb ->> 'event' = 'message.status')::int as status
      from parley_bus.records where topic = ${Topics.eventsMessage} and key = ${orgId}`
    const [turns] = await db.sql<Array<{ n: number }>>`
      select count(*)::int as n from parley_bus.records where topic = ${Topics.channelInbound} and key = ${orgId}`
    const checks = [
      ["inbound messages stored", stored?.n, inbound],
      ["message.inbound records", events?.inbound, inbound],
      ["channel.inbound records", turns?.n, inbound],
      ["delivered statuses stored", delivered?.n, statuses],
      ["message.status records", events?.status, statuses],
    ] as const
    for (const [what, found, expected] of checks) console.log(`${what}: ${found} (accepted ${expected})`)
    const lost = checks.filter(([, found, expected]) => found !== expected)
    console.log(
      JSON.stringify({
        concurrency: CONCURRENCY,
        payloads: PAYLOADS,
        rounds: ROUNDS,
        statusEvery: STATUS_EVERY,
        bare: { ...bareMedian, acceptedMask: undefined },
        messaging: { ...messagingMedian, acceptedMask: undefined },
      }),
    )
    if (lost.length > 0) throw new Error(`accepted payloads missing: ${lost.map(([what]) => what).join(", ")}`)
  } finally {
    await stopAll()
    await db.close()
  }
}

if (process.argv[3] === "campaign") await import("./campaign.ts")
else await main()
