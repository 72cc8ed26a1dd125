import { CreateApiKeyRequest, normalizeOrigin } from "@parley/contracts"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"

describe("allowed origins", () => {
  it("accepts https origins, with or without a port, in the form browsers send", () => {
    expect(normalizeOrigin("https://shop.example.com")).toBe("https://shop.example.com")
    expect(normalizeOrigin("https://Shop.Example.com:8443/")).toBe("https://shop.example.com:8443")
    expect(normalizeOrigin("https://example.com:443")).toBe("https://example.com")
  })

  it("refuses plain http, on loopback too (the contract's origins are https://host[:port])", () => {
    expect(normalizeOrigin("http://example.com")).toBeUndefined()
    expect(normalizeOrigin("http://localhost:5173")).toBeUndefined()
    expect(normalizeOrigin("http://127.0.0.1:8080")).toBeUndefined()
    expect(normalizeOrigin("http://[::1]:3000")).toBeUndefined()
    expect(normalizeOrigin("https://localhost:5173")).toBe("https://localhost:5173")
  })

  it("refuses paths, queries, credentials, wildcards and other schemes", () => {
    for (const bad of [
      "https://example.com/path",
      "https://example.com?x=1",
      "https://user:pw@example.com",
      "https://*.example.com",
      "*",
      "ftp://example.com",
      "example.com",
      "https://",
    ]) {
      expect(normalizeOrigin(bad), bad).toBeUndefined()
    }
  })

  it("names the offending field when a key request carries a bad origin or scope", () => {
    const result = Schema.decodeUnknownExit(CreateApiKeyRequest)(
      { name: "k", scopes: ["chat:write", "admin"], allowedOrigins: ["https://ok.example", "http://evil.example"] },
      { errors: "all" },
    )
    expect(String(result)).toContain("scopes")
    expect(String(result)).toContain("allowedOrigins")
  })
})
