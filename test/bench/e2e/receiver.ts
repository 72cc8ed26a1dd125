/**
 * The parties outside Parley, in one process of their own: the tenant's webhook receiver and the
 * messaging provider's Graph API (the assistant answers each inbound message through it).
 *
 * - `POST /hook`: a delivery (Parley's `message.inbound`, or the baseline relay's); the body's text
 *   carries `bench <n>`, and its arrival time is kept per n (wall clock in ms, sub-ms precision).
 * - `POST /<version>/<phoneNumberId>/messages`: the provider accepting a send, with a message id.
 * - `GET /<version>/<phoneNumberId>`: the provider confirming the token can read the number (the
 *   check `PUT /api/channels/cloud` makes before it stores a channel).
 * - `GET /arrivals`: `{ deliveries, arrivals: { "<n>": time, … } }` since the last `POST /reset`;
 *   `GET /count`: `{ arrived, replies, lastReplyAt }`, how many distinct n, how many sends the
 *   provider took, and when it took the last (0: none).
 *
 *   node receiver.ts <port>
 */
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"

const now = () => performance.timeOrigin + performance.now()
let arrivals = new Map<number, number>()
let deliveries = 0
let replies = 0
let lastReplyAt = 0

const server = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const url = request.url ?? "/"
    if (request.method === "POST" && url === "/hook") {
      const at = now()
      deliveries++
      const seq = /bench (\d+)/.exec(Buffer.concat(chunks).toString("utf8"))?.[1]
      if (seq !== undefined && !arrivals.has(Number(seq))) arrivals.set(Number(seq), at)
      response.writeHead(204).end()
    } else if (request.method === "POST" && url.endsWith("/messages")) {
      replies++
      lastReplyAt = now()
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ messaging_product: "whatsapp", messages: [{ id: `wamid.reply.${randomUUID()}` }] }))
    } else if (request.method === "GET" && /^\/v[0-9.]+\/[0-9]+$/.test(url)) {
      const id = url.split("/")[2]
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ id, display_phone_number: "+1 555-010-0000", verified_name: "Bench" }))
    } else if (request.method === "GET" && url === "/count") {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ arrived: arrivals.size, replies, lastReplyAt }))
    } else if (request.method === "GET" && url === "/arrivals") {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ deliveries, arrivals: Object.fromEntries(arrivals) }))
    } else if (request.method === "POST" && url === "/reset") {
      arrivals = new Map()
      deliveries = 0
      replies = 0
      lastReplyAt = 0
      response.writeHead(204).end()
    } else {
      response.writeHead(404).end()
    }
  })
})
server.keepAliveTimeout = 60_000
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1")
