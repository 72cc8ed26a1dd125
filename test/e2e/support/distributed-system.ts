/**
 * Parley distributed as in production: every service its own process from the build output, on
 * one fresh Postgres database (each service in its own schema), Redis, and Kafka (the test broker,
 * with every topic of the catalogue created first).
 */
import { randomBytes } from "node:crypto"
import { kafkaTestBrokers } from "@parley/bus/testing"
import { TopicCatalog } from "@parley/contracts"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { freePort } from "@parley/platform/testing"
import { awaitLive, type ServiceProcess, spawnService, stopAll } from "./distributed-process.ts"

type KafkaTestBrokers = Awaited<ReturnType<typeof kafkaTestBrokers>>

export interface DistributedSystem {
  /** The gateway's public base URL. */
  readonly url: string
  /** The gateway's internal `/metrics` server. */
  readonly gatewayMetricsUrl: string
  readonly operatorToken: string
  readonly cloudAppSecret: string
  readonly services: ReadonlyArray<ServiceProcess>
  readonly kafka: KafkaTestBrokers
  readonly startupMs: number
  /** Milliseconds from the start until each service answered /health/live. */
  readonly liveAfter: Readonly<Record<string, number>>
  /** Every process's log, for a failure message. */
  logs(): string
  stop(): Promise<void>
}

export interface DistributedOptions {
  /** Extra environment for every service (e.g. PARLEY_CLOUD_API_URL of a loopback provider). */
  readonly env?: Record<string, string>
  /**
   * How many processes of each internal service (default one). The gateway forwards to the first
   * instance of each; the others serve only the bus (consumer groups share the partitions).
   */
  readonly instances?: Partial<Record<InternalServiceName, number>>
}

const internalNames = ["identity", "webhook-registry", "dispatcher", "assistant", "messaging"] as const
export type InternalServiceName = (typeof internalNames)[number]

/** The environment with nothing Parley-related inherited from the machine running the tests. */
const cleanEnvironment = (): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of Object.keys(env)) {
    if (name.startsWith("PARLEY_") || ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS"].includes(name)) delete env[name]
  }
  return env
}

export const startDistributedSystem = async (options: DistributedOptions = {}): Promise<DistributedSystem> => {
  const started = Date.now()
  let db: FreshDatabase | undefined
  let kafka: KafkaTestBrokers | undefined
  try {
    db = await freshDatabase()
    kafka = await kafkaTestBrokers()
    await kafka.createTopics(TopicCatalog)
    const operatorToken = randomBytes(24).toString("base64url")
    const cloudAppSecret = randomBytes(16).toString("hex")
    const gatewayPort = await freePort()
    const gatewayMetricsPort = await freePort()
    const env: Record<string, string | undefined> = {
      ...cleanEnvironment(),
      DATABASE_URL: db.url,
      // The gateway counts in Redis by organization, key or client IP, under a fixed key prefix (no
      // variable sets it). Unauthenticated requests from 127.0.0.1 share one counter with every
      // other test on this Redis, so the limits are raised out of their way: the limiter still
      // runs its script in Redis on every request, it just never refuses this test.
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      PARLEY_RATE_GENERAL_PER_MIN: "100000",
      PARLEY_RATE_HEAVY_PER_MIN: "100000",
      KAFKA_BROKERS: kafka.brokers.join(","),
      // librdkafka's mock cannot serve kafkajs's idempotent producer; services that take the
      // setting explicitly read it here (KafkaBus also detects the mock by itself).
      KAFKA_IDEMPOTENT: String(kafka.idempotent),
      PARLEY_SECRET_KEY: randomBytes(32).toString("base64"),
      PARLEY_INTERNAL_SECRET: randomBytes(32).toString("base64url"),
      PARLEY_OPERATOR_TOKEN: operatorToken,
      PARLEY_PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
      PARLEY_CLOUD_APP_SECRET: cloudAppSecret,
      PARLEY_CLOUD_VERIFY_TOKEN: randomBytes(8).toString("hex"),
      PARLEY_GATEWAY_METRICS_PORT: String(gatewayMetricsPort),
      PARLEY_LOG_LEVEL: "warn",
      ...options.env,
    }
    // Ports first, so the gateway can start alongside the services it forwards to.
    const ports = Object.fromEntries(await Promise.all(internalNames.map(async (name) => [name, await freePort()])))
    const urlOf = (name: string) => `http://127.0.0.1:${ports[name]}`
    const gatewayEnv = {
      ...env,
      PARLEY_IDENTITY_URL: urlOf("identity"),
      PARLEY_WEBHOOK_REGISTRY_URL: urlOf("webhook-registry"),
      PARLEY_ASSISTANT_URL: urlOf("assistant"),
      PARLEY_MESSAGING_URL: urlOf("messaging"),
    }
    const internal = await Promise.all(
      internalNames.flatMap((name) =>
        Array.from({ length: options.instances?.[name] ?? 1 }, (_, i) =>
          spawnService(name, env, i === 0 ? ports[name] : undefined),
        ),
      ),
    )
    const gateway = await spawnService("gateway", gatewayEnv, gatewayPort)
    const liveAfter: Record<string, number> = {}
    await Promise.all(
      [...internal, gateway].map((service) =>
        awaitLive(service).then(() => {
          liveAfter[service.name] = Date.now() - started
        }),
      ),
    )
    const services = [...internal, gateway]
    const database = db
    const broker = kafka
    return {
      url: gateway.url,
      gatewayMetricsUrl: `http://127.0.0.1:${gatewayMetricsPort}`,
      operatorToken,
      cloudAppSecret,
      services,
      kafka: broker,
      startupMs: Date.now() - started,
      liveAfter,
      logs: () => services.map((s) => `--- ${s.name} ${s.url}\n${s.output().slice(-4000)}`).join("\n"),
      stop: async () => {
        await stopAll()
        await broker.stop()
        await database.close()
      },
    }
  } catch (error) {
    await stopAll()
    await kafka?.stop()
    await db?.close()
    throw error
  }
}
