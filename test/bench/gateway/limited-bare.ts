/**
 * Reference: the bare Fastify of `bare-server.ts` plus the gateway's own Redis rate limiter — the
 * sliding-window script, once per turn of the event loop for the requests read in it, through the
 * gateway's client and its options — and nothing else: no key, no principal, no forwarding. What any
 * route "with the Redis limiter on" must pay at the least, so its ratio to bare Fastify is the
 * ceiling of the gateway's.
 */
import { makeLogger } from "@parley/platform"
import { fastify } from "fastify"
import { makeMemoryRateLimiter } from "../../../services/gateway/src/ratelimit/memory-limiter.ts"
import { makeRedisRateLimiter } from "../../../services/gateway/src/ratelimit/redis-limiter.ts"

const limits = { generalPerWindow: 1_000_000_000, heavyPerWindow: 20, windowMs: 60_000 }
const limiter = makeRedisRateLimiter({
  redisUrl: process.argv[3] as string,
  limits,
  keyPrefix: `bench:${process.pid}:`,
  fallback: makeMemoryRateLimiter(limits),
  logger: makeLogger({ service: "bench-limited-bare", level: "warn" }),
  onFallbackChange: (active) => {
    if (active) process.stderr.write("limited-bare: Redis unreachable, the run is not valid\n")
  },
})
if (!(await limiter.connected(5_000))) throw new Error("limited-bare: Redis did not connect")

const app = fastify({ logger: false })
app.get("/*", async (request, reply) => {
  const decision = await limiter.check({ subject: `ip:${request.ip}`, heavy: false })
  if (!decision.allowed || limiter.usingFallback) return reply.code(503).send({ error: "limiter" })
  return { ok: true, data: [] }
})
await app.listen({ host: "127.0.0.1", port: Number(process.argv[2] ?? 0) })
