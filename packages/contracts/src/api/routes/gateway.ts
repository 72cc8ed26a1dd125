/**
 * The routes the gateway serves itself: the API documentation (CONTRACT.md §11) and the chat
 * widget's files (§15) — and the console's (§14) when they are added here. Never forwarded, not in
 * the OpenAPI document; the gateway counts each against the general rate limit per client IP (§3).
 */
import { jsonSchema, serviceRoutes } from "./model.ts"

const text = (description: string, contentType: string) => ({
  description,
  content: { [contentType]: jsonSchema({ type: "string" }) },
})

export const gatewayRoutes = serviceRoutes("gateway", ["/docs", "/widget.js", "/widget"], {
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
  widgetLoader: {
    method: "GET",
    path: "/widget.js",
    access: "anonymous",
    summary: "The chat widget's loader, the one script a page embeds (CONTRACT.md §15); five minutes, then its ETag",
    tag: "Chat widget",
    responses: { 200: text("The loader", "text/javascript") },
  },
  widgetModule: {
    method: "GET",
    path: "/widget/*",
    access: "anonymous",
    summary: "The chat widget's panel, named by its content hash and loaded on first open; immutable",
    tag: "Chat widget",
    responses: { 200: text("A module of the panel", "text/javascript") },
  },
})
