/**
 * The durable baseline (issue #28): the smallest implementation of Parley's job that loses nothing
 * accepted, on the same embedded PostgreSQL server `npm start` runs (`startEmbeddedPostgres`, same
 * binaries, same settings: fsync and synchronous_commit on):
 *
 * - the cloud webhook checks `X-Hub-Signature-256` (HMAC-SHA256, constant-time) over the raw body;
 *   the verified messages of every request that arrives while a commit is in flight are written
 *   together (group commit) in ONE statement: the messages, unique on the provider's message id, an
 *   outbox row for each new one, and a NOTIFY; each request is answered 200 after that commit;
 * - `WORKERS` workers, woken by the NOTIFY (or every second), each claim up to `BATCH` outbox rows
 *   in one transaction (`FOR UPDATE SKIP LOCKED`), send each message's reply to the provider's
 *   Graph API and its signed `message.inbound` webhook to the tenant's receiver, then record both
 *   outcomes and delete the claimed rows in one statement, and commit. A crash before that commit
 *   leaves the rows to be claimed again: at least once, as Parley.
 *
 *   node durable.ts <port> <data dir> <app secret> <receiver origin>
 */
import { createHmac } from "node:crypto"
import { connect, startEmbeddedPostgres } from "@parley/db"
import { Pool } from "undici"
import { listenForCloudWebhooks } from "./cloud-endpoint.ts"
import { PHONE_NUMBER_ID } from "./load.ts"

const [, , port = "0", dataDir = "", secret = "", receiver = ""] = process.argv
const WORKERS = 4
const BATCH = 64
const webhookKey = Buffer.from("bench durable webhook secret")

const server = await startEmbeddedPostgres({ dataDir })
/** Through the Unix socket with Parley's client options, as Parley connects. */
const sql = connect(server.socketUrl ?? server.url, WORKERS + 2)
await sql.unsafe(`
  create table if not exists messages (
    id bigint generated always as identity primary key,
    provider_id text not null unique,
    sender text not null,
    body text not null,
    received_at timestamptz not null default now()
  );
  create table if not exists outbox (message_id bigint primary key references messages (id));
  create table if not exists deliveries (
    message_id bigint primary key references messages (id),
    reply_id text,
    reply_status int not null,
    webhook_status int not null,
    delivered_at timestamptz not null default now()
  );
`)
const pool = new Pool(receiver, { connections: 32 })

// ---- ingress: verify, group-commit, answer after the commit ------------------------------------

interface Inbound {
  readonly id: string
  readonly from: string
  readonly text: string
}

const messagesOf = (body: Buffer): Array<Inbound> => {
  const out: Array<Inbound> = []
  for (const entry of JSON.parse(body.toString("utf8")).entry ?? [])
    for (const change of entry.changes ?? [])
      for (const message of change.value?.messages ?? [])
        if (message.type === "text") out.push({ id: message.id, from: message.from, text: message.text.body })
  return out
}

let waiting: Array<{ messages: Array<Inbound>; done: (ok: boolean) => void }> = []
let committing = false

const commitWaiting = async (): Promise<void> => {
  if (committing || waiting.length === 0) return
  committing = true
  const batch = waiting
  waiting = []
  const rows = batch.flatMap((request) => request.messages)
  let ok = true
  try {
    await sql`
      with inserted as (
        insert into messages (provider_id, sender, body)
        select m ->> 'id', m ->> 'from', m ->> 'text' from jsonb_array_elements(${sql.json(rows as never)}) m
        on conflict (provider_id) do nothing
        returning id
      ), queued as (insert into outbox (message_id) select id from inserted returning 1)
      select pg_notify('outbox', '') where exists (select from queued)`
  } catch (error) {
    console.error("commit failed", error)
    ok = false
  }
  for (const request of batch) request.done(ok)
  committing = false
  void commitWaiting()
}

listenForCloudWebhooks(Number(port), secret, (body, response) => {
  const messages = messagesOf(body)
  if (messages.length === 0) return void response.writeHead(200).end('{"received":true}')
  waiting.push({
    messages,
    done: (ok) =>
      ok
        ? response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}')
        : response.writeHead(503).end(),
  })
  void commitWaiting()
})

// ---- worker: claim a batch, send the reply and the webhook, record both in one statement ---------

const post = async (path: string, headers: Record<string, string>, body: string) => {
  try {
    const response = await pool.request({ method: "POST", path, headers, body })
    const text = await response.body.text()
    return { status: response.statusCode, text }
  } catch {
    return { status: 0, text: "" }
  }
}

const deliver = async (message: { id: string; provider_id: string; sender: string; body: string }) => {
  const reply = post(
    `/v21.0/${PHONE_NUMBER_ID}/messages`,
    { "content-type": "application/json", authorization: "Bearer bench-access-token" },
    JSON.stringify({ messaging_product: "whatsapp", to: message.sender, type: "text", text: { body: "Thanks!" } }),
  )
  const payload = JSON.stringify({
    type: "message.inbound",
    timestamp: new Date().toISOString(),
    data: { id: message.id, providerMessageId: message.provider_id, from: message.sender, text: message.body },
  })
  const timestamp = Math.floor(Date.now() / 1000)
  const webhookId = `msg_${message.id}`
  const signature = createHmac("sha256", webhookKey).update(`${webhookId}.${timestamp}.${payload}`).digest("base64")
  const webhook = post(
    "/hook",
    {
      "content-type": "application/json",
      "webhook-id": webhookId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": `v1,${signature}`,
    },
    payload,
  )
  const [sent, delivered] = await Promise.all([reply, webhook])
  const replyId = sent.status === 200 ? (JSON.parse(sent.text).messages?.[0]?.id ?? null) : null
  return { message_id: message.id, reply_id: replyId, reply_status: sent.status, webhook_status: delivered.status }
}

/** One claimed batch, sent and recorded; answers how many rows it claimed. */
const workOnce = (): Promise<number> =>
  sql.begin(async (tx) => {
    const claimed = await tx<Array<{ id: string; provider_id: string; sender: string; body: string }>>`
      select m.id::text, m.provider_id, m.sender, m.body
      from outbox o join messages m on m.id = o.message_id
      order by o.message_id limit ${BATCH} for update of o skip locked`
    if (claimed.length === 0) return 0
    const outcomes = await Promise.all(claimed.map(deliver))
    await tx`
      with outcome as (
        select * from jsonb_to_recordset(${tx.json(outcomes as never)})
          as x (message_id bigint, reply_id text, reply_status int, webhook_status int)
      ), recorded as (
        insert into deliveries (message_id, reply_id, reply_status, webhook_status)
        select message_id, reply_id, reply_status, webhook_status from outcome
      )
      delete from outbox where message_id in (select message_id from outcome)`
    return claimed.length
  })

/** Set by a NOTIFY; a worker that finds it set claims again instead of sleeping. */
let notified = false
const sleepers = new Set<() => void>()
const worker = async () => {
  for (;;) {
    const claimed = await workOnce().catch((error: unknown) => {
      if (!stopping) console.error("worker failed", error)
      return 0
    })
    if (claimed === BATCH) continue
    if (notified) {
      notified = false
      continue
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => woken(), 1_000)
      const woken = () => {
        clearTimeout(timer)
        sleepers.delete(woken)
        resolve()
      }
      sleepers.add(woken)
    })
  }
}
await sql.listen("outbox", () => {
  notified = true
  for (const woken of [...sleepers]) woken()
})
for (let i = 0; i < WORKERS; i++) void worker()

let stopping = false
const stop = async () => {
  stopping = true
  await sql.end({ timeout: 5 })
  await server.close()
  process.exit(0)
}
process.on("SIGTERM", () => void stop())
process.on("SIGINT", () => void stop())
