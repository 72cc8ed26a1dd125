import { loadConfig } from "@parley/platform"
import { Effect, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { GatewayConfig, GatewayServiceUrls } from "./config.ts"

const required = {
  PARLEY_INTERNAL_SECRET: "s3cret",
  PARLEY_IDENTITY_URL: "http://identity:3101/",
  PARLEY_WEBHOOK_REGISTRY_URL: "http://registry:3102",
  PARLEY_ASSISTANT_URL: "http://assistant:3103",
  PARLEY_MESSAGING_URL: "http://messaging:3104",
}

describe("the gateway's configuration", () => {
  it("takes the contract's defaults", async () => {
    const config = await Effect.runPromise(loadConfig(GatewayConfig, required))
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      publicUrl: "http://localhost:3000",
      redisUrl: undefined,
      kafkaBrokers: undefined,
      generalPerMin: 300,
      heavyPerMin: 20,
      trustedProxies: [],
    })
    expect(await Effect.runPromise(loadConfig(GatewayServiceUrls, required))).toMatchObject({
      identity: "http://identity:3101",
      messaging: "http://messaging:3104",
    })
    expect(Redacted.value(config.internalSecret)).toBe("s3cret")
    expect(config.metricsPort).not.toBe(config.port)
  })

  it("reads limits, Redis, Kafka and ports from the environment", async () => {
    const config = await Effect.runPromise(
      loadConfig(GatewayConfig, {
        ...required,
        PARLEY_PORT: "8080",
        PARLEY_GATEWAY_METRICS_PORT: "9100",
        PARLEY_RATE_GENERAL_PER_MIN: "600",
        PARLEY_RATE_HEAVY_PER_MIN: "0",
        REDIS_URL: "redis://cache:6379",
        KAFKA_BROKERS: "k1:9092, k2:9092",
      }),
    )
    expect(config).toMatchObject({
      port: 8080,
      metricsPort: 9100,
      generalPerMin: 600,
      heavyPerMin: 1,
      redisUrl: "redis://cache:6379",
      kafkaBrokers: ["k1:9092", "k2:9092"],
    })
  })

  it("refuses to start without the internal secret or a service URL", async () => {
    const { PARLEY_INTERNAL_SECRET: _secret, ...withoutSecret } = required
    expect(await Effect.runPromise(Effect.result(loadConfig(GatewayConfig, withoutSecret)))).toMatchObject({
      _tag: "Failure",
    })
    const { PARLEY_MESSAGING_URL: _url, ...withoutUrl } = required
    expect(await Effect.runPromise(Effect.result(loadConfig(GatewayServiceUrls, withoutUrl)))).toMatchObject({
      _tag: "Failure",
    })
  })

  it("reads the trusted proxies as addresses and CIDRs, and refuses one that trusts everything", async () => {
    const config = await Effect.runPromise(
      loadConfig(GatewayConfig, { ...required, PARLEY_GATEWAY_TRUSTED_PROXIES: " 10.0.0.0/8, 192.168.1.7,fd00::/8 " }),
    )
    expect(config.trustedProxies).toEqual(["10.0.0.0/8", "192.168.1.7", "fd00::/8"])
    for (const value of ["0.0.0.0/0", "::/0", "*", "true", "10.0.0.0/33", "ingress-nginx", "10.0.0.1/8/1"]) {
      const result = await Effect.runPromise(
        Effect.result(loadConfig(GatewayConfig, { ...required, PARLEY_GATEWAY_TRUSTED_PROXIES: value })),
      )
      expect(result, value).toMatchObject({ _tag: "Failure" })
    }
  })

  it("refuses the old trust-every-peer switch, naming its replacement", async () => {
    const result = await Effect.runPromise(
      Effect.result(loadConfig(GatewayConfig, { ...required, PARLEY_GATEWAY_TRUST_PROXY: "true" })),
    )
    expect(String(JSON.stringify(result))).toMatch(/PARLEY_GATEWAY_TRUSTED_PROXIES/)
    const off = await Effect.runPromise(loadConfig(GatewayConfig, { ...required, PARLEY_GATEWAY_TRUST_PROXY: "false" }))
    expect(off.trustedProxies).toEqual([])
  })
})
