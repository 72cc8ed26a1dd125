import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Resolver } from "./resolver.ts"
import { assertPublicUrl } from "./url.ts"

const resolvesTo =
  (...addresses: Array<string>): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))

const reason = (url: string, resolver: Resolver, allowPrivate = false) =>
  Effect.runPromise(
    assertPublicUrl(url, { allowPrivate, resolver }).pipe(
      Effect.match({ onFailure: (error) => error.reason, onSuccess: () => "accepted" }),
    ),
  )

describe("assertPublicUrl", () => {
  it("accepts an https URL whose host resolves only to public addresses", async () => {
    expect(await reason("https://hooks.example.com/in", resolvesTo("93.184.216.34"))).toBe("accepted")
  })

  it.each([["127.0.0.1"], ["10.0.0.8"], ["::ffff:127.0.0.1"], ["fe80::1"]])(
    "refuses a hostname resolving to %s",
    async (address) => {
      expect(await reason("https://hooks.example.com/in", resolvesTo(address))).toMatch(/non-public/)
    },
  )

  it("refuses a hostname when any one of its addresses is private", async () => {
    expect(await reason("https://hooks.example.com/", resolvesTo("93.184.216.34", "192.168.0.2"))).toMatch(/non-public/)
  })

  it("refuses literal private hosts without resolving them", async () => {
    const never: Resolver = async () => {
      throw new Error("must not resolve")
    }
    expect(await reason("http://127.0.0.1:8080/", never)).toMatch(/non-public/)
    expect(await reason("http://[::1]/", never)).toMatch(/non-public/)
    expect(await reason("http://[::ffff:10.0.0.1]/", never)).toMatch(/non-public/)
  })

  it("refuses other schemes, credentials, port 0, relative and overlong URLs", async () => {
    const ok = resolvesTo("93.184.216.34")
    expect(await reason("ftp://example.com/", ok)).toMatch(/http or https/)
    expect(await reason("https://user:pw@example.com/", ok)).toMatch(/credentials/)
    expect(await reason("/relative", ok)).toMatch(/absolute/)
    expect(await reason("https://example.com:0/hook", ok)).toMatch(/port 0/)
    expect(await reason(`https://example.com/${"a".repeat(2048)}`, ok)).toMatch(/2048/)
  })

  it("allows private hosts when allowPrivate is set", async () => {
    expect(await reason("http://127.0.0.1:9999/", resolvesTo("127.0.0.1"), true)).toBe("accepted")
  })

  it("refuses a host that does not resolve", async () => {
    expect(await reason("https://nowhere.invalid/", resolvesTo())).toMatch(/resolve/)
  })
})
