/**
 * The baseline: a bare Fastify answering a small JSON object, in a process of its own. The gateway
 * benchmark also forwards to it as the "tiny upstream" standing in for a service.
 */
import { fastify } from "fastify"

const app = fastify({ logger: false })
app.get("/*", async () => ({ ok: true, data: [] }))
await app.listen({ host: "127.0.0.1", port: Number(process.argv[2] ?? 0) })
process.send?.("ready")
