/**
 * The routes the gateway serves itself: the API documentation (CONTRACT.md §11) — and the front
 * ends' files (§14, §15) when they are added here. Never forwarded, not in the OpenAPI document;
 * the gateway counts each against the general rate limit per client IP (§3).
 */
import { jsonSchema, serviceRoutes } from "./model.ts"

const text = (description: string, contentType: string) => ({
  description,
  content: { [contentType]: jsonSchema({ type: "string" }) },
})

export const gatewayRoutes = serviceRoutes("gateway", ["/docs"], {
  apiDocsPage: {
    method: "GET",
    path: "/docs",
    access: "anonymous",
    summary: "A browsable page of the OpenAPI document",
    tag: "Documentation",
    responses: { 200: text("The page", "text/html") },
  },
  openApiDocument: {
    method: "GET",
    path: "/docs/openapi.json",
    access: "anonymous",
    summary: "The OpenAPI 3.1 document of the public and private API",
    tag: "Documentation",
    responses: { 200: text("The document", "application/json") },
  },
})
