/**
 * The floor of any Node HTTP proxy on this machine, for reference: Fastify receiving, an undici
 * keep-alive pool forwarding, the answer sent back — no authentication, no rate limit, no headers
 * work. The gateway's cost above this is what its own features cost.
 */
import { fastify } from "fastify"
import { Pool } from "undici"

const pool = new Pool(process.argv[3] as string, { connections: 64 })
const app = fastify({ logger: false })
app.get("/*", async (request, reply) => {
  const response = await pool.request({ method: "GET", path: request.url })
  reply.code(response.statusCode)
  return reply.send(Buffer.from(await response.body.arrayBuffer()))
})
await app.listen({ host: "127.0.0.1", port: Number(process.argv[2]) })
