import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { MessagingConfig } from "./config.ts"

const load = (env: Record<string, string>) => Effect.runSync(MessagingConfig.parse(ConfigProvider.fromUnknown(env)))

const required = { PARLEY_SECRET_KEY: "k", PARLEY_INTERNAL_SECRET: "s" }

describe("MessagingConfig", () => {
  it("defaults to the provider's Graph API v21.0, port 3105 on loopback and 80 campaign sends/s", () => {
    const config = load(required)
    expect(config).toMatchObject({
      cloudApiUrl: "https://graph.facebook.com",
      cloudApiVersion: "v21.0",
      port: 3105,
      host: "127.0.0.1",
      campaignRatePerSecond: 50,
      allowPrivateUrls: false,
    })
    expect(Option.isNone(config.cloudAppSecret)).toBe(true)
  })

  it("listens where PARLEY_HOST says unless PARLEY_MESSAGING_HOST says otherwise, and keeps secrets redacted", () => {
    expect(load({ ...required, PARLEY_HOST: "0.0.0.0" }).host).toBe("0.0.0.0")
    expect(load({ ...required, PARLEY_HOST: "0.0.0.0", PARLEY_MESSAGING_HOST: "::1" }).host).toBe("::1")
    const config = load({ ...required, PARLEY_CLOUD_APP_SECRET: "app-secret" })
    expect(String(config.secretKey)).not.toContain("k")
    expect(Option.map(config.cloudAppSecret, Redacted.value)).toEqual(Option.some("app-secret"))
  })
})
