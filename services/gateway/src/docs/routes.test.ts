import { createHash } from "node:crypto"
import { fastify } from "fastify"
import { afterAll, describe, expect, it } from "vitest"
import { registerDocsRoutes } from "./routes.ts"

describe("the /docs routes", () => {
  const app = fastify()
  // Counting is the gateway's (test/rate-limits.test.ts); here it lets everything through.
  registerDocsRoutes(app, { publicUrl: "https://parley.example", count: async () => undefined })
  afterAll(() => app.close())

  it("serves the OpenAPI 3.1 document as JSON with the public URL as its server", async () => {
    const response = await app.inject({ method: "GET", url: "/docs/openapi.json" })
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toMatch(/^application\/json/)
    const document = response.json() as { openapi: string; servers: unknown; paths: Record<string, unknown> }
    expect(document.openapi).toBe("3.1.0")
    expect(document.servers).toEqual([{ url: "https://parley.example" }])
    expect(Object.keys(document.paths)).toContain("/api/org/webhooks/{id}/deliveries/{deliveryId}/redeliver")
  })

  it("serves a page that lists every operation without JavaScript and loads nothing from elsewhere", async () => {
    const response = await app.inject({ method: "GET", url: "/docs" })
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toMatch(/^text\/html/)
    const html = response.body
    const document = (await app.inject({ method: "GET", url: "/docs/openapi.json" })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>
    }
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) expect(html).toContain(`id="${op.operationId}"`)
    }
    expect(html).toContain("<code>/api/public/chat/{sessionId}</code>")
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/)
  })

  it("allows only its own inline script through the content security policy", async () => {
    const response = await app.inject({ method: "GET", url: "/docs" })
    const csp = String(response.headers["content-security-policy"])
    expect(csp).toContain("default-src 'none'")
    const script = /<script>([\s\S]*?)<\/script>/.exec(response.body)?.[1] ?? ""
    const hash = createHash("sha256").update(script).digest("base64")
    expect(csp).toContain(`'sha256-${hash}'`)
  })
})
