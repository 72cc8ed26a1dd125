/**
 * The baseline: a bare Fastify that does what any provider-webhook receiver must before answering —
 * take the raw body bytes and check `X-Hub-Signature-256` over them (HMAC-SHA256, constant-time
 * compare, the same platform functions messaging uses) — and answers 200 with no database.
 *
 *   node bare-webhook.ts <port> <app secret>
 */
import { constantTimeEqual, hmacSha256Hex } from "@parley/platform"
import { fastify } from "fastify"

const secret = process.argv[3] ?? ""
const app = fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 })
app.removeAllContentTypeParsers()
app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body))
app.get("/health", async () => ({ ok: true }))
app.post("/channels/cloud/webhook", async (request, reply) => {
  const header = request.headers["x-hub-signature-256"]
  const valid =
    typeof header === "string" &&
    header.startsWith("sha256=") &&
    constantTimeEqual(header.slice(7).toLowerCase(), hmacSha256Hex(secret, request.body as Buffer))
  if (!valid) return reply.code(401).send({ error: "Invalid signature", code: "unauthorized" })
  return { received: true }
})
await app.listen({ host: "127.0.0.1", port: Number(process.argv[2] ?? 0) })
