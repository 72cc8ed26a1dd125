/**
 * `GET /docs/openapi.json` and `GET /docs` (docs/contract.md §11): the document is built once, from the
 * Schemas in `@parley/contracts`, when the gateway starts. Neither route is authenticated (they
 * describe the API, they do not touch a tenant), but both count against the general rate limit
 * like every route outside `/health*`, `/metrics` and `/channels/*` (§3): `count` runs first.
 */
import { gatewayRoutes, openApiDocument } from "@parley/contracts"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { docsPageCsp, renderDocsPage } from "./page.ts"

export interface DocsOptions {
  /** `PARLEY_PUBLIC_URL`, listed as the document's server. */
  readonly publicUrl: string
  readonly version?: string
  /** Counts the request against the rate limits (sets `RateLimit-*`; throws the 429). */
  readonly count: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
}

export const registerDocsRoutes = (app: FastifyInstance, options: DocsOptions): void => {
  const document = openApiDocument({
    serverUrl: options.publicUrl,
    ...(options.version === undefined ? {} : { version: options.version }),
  })
  const json = JSON.stringify(document)
  const page = renderDocsPage(document)
  const onRequest = options.count
  const { apiDocsPage, openApiDocument: documentRoute } = gatewayRoutes.routes
  app.get(documentRoute.path, { onRequest }, (_request, reply) =>
    reply.type("application/json; charset=utf-8").header("cache-control", "public, max-age=300").send(json),
  )
  app.get(apiDocsPage.path, { onRequest }, (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", docsPageCsp)
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "public, max-age=300")
      .send(page),
  )
}
