import { Config, Effect, Exit, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import {
  databaseUrl,
  dataDir,
  internalSecret,
  kafkaBrokers,
  loadConfig,
  logLevel,
  port,
  publicUrl,
  redisUrl,
  serviceHost,
} from "./config.ts"

const Shared = Config.all({
  dataDir,
  databaseUrl,
  redisUrl,
  kafkaBrokers,
  logLevel,
  publicUrl,
  port: port("PARLEY_PORT", 3000),
})

describe("loadConfig", () => {
  it("applies the defaults to an empty environment", async () => {
    const config = await Effect.runPromise(loadConfig(Shared, {}))
    expect(config).toEqual({
      dataDir: ".parley",
      databaseUrl: undefined,
      redisUrl: undefined,
      kafkaBrokers: undefined,
      logLevel: "info",
      publicUrl: "http://localhost:3000",
      port: 3000,
    })
  })

  it("reads the given record, splitting the broker list and treating empty values as unset", async () => {
    const config = await Effect.runPromise(
      loadConfig(Shared, {
        DATABASE_URL: "postgres://db/parley",
        REDIS_URL: "",
        KAFKA_BROKERS: " k1:9092, k2:9092 ,",
        PARLEY_LOG_LEVEL: "debug",
        PARLEY_PUBLIC_URL: "https://parley.example.com/",
        PARLEY_PORT: "8080",
        PARLEY_DATA_DIR: "/var/lib/parley",
      }),
    )
    expect(config).toEqual({
      dataDir: "/var/lib/parley",
      databaseUrl: "postgres://db/parley",
      redisUrl: undefined,
      kafkaBrokers: ["k1:9092", "k2:9092"],
      logLevel: "debug",
      publicUrl: "https://parley.example.com",
      port: 8080,
    })
  })

  it("keeps secrets Redacted so they print as <redacted>", async () => {
    const secret = await Effect.runPromise(loadConfig(internalSecret, { PARLEY_INTERNAL_SECRET: "hunter2" }))
    expect(Redacted.value(secret)).toBe("hunter2")
    expect(String(secret)).not.toContain("hunter2")
  })

  it("fails on a missing required secret and on invalid values", async () => {
    expect(Exit.isFailure(await Effect.runPromiseExit(loadConfig(internalSecret, {})))).toBe(true)
    expect(Exit.isFailure(await Effect.runPromiseExit(loadConfig(Shared, { PARLEY_PORT: "http" })))).toBe(true)
    expect(Exit.isFailure(await Effect.runPromiseExit(loadConfig(Shared, { PARLEY_LOG_LEVEL: "loud" })))).toBe(true)
  })

  it("listens where the service's own host variable says, else where PARLEY_HOST says, else on loopback", async () => {
    const identityHost = serviceHost("PARLEY_IDENTITY_HOST")
    expect(await Effect.runPromise(loadConfig(identityHost, {}))).toBe("127.0.0.1")
    expect(await Effect.runPromise(loadConfig(identityHost, { PARLEY_HOST: "0.0.0.0" }))).toBe("0.0.0.0")
    expect(
      await Effect.runPromise(loadConfig(identityHost, { PARLEY_HOST: "0.0.0.0", PARLEY_IDENTITY_HOST: "::1" })),
    ).toBe("::1")
  })
})
