/**
 * The routes the gateway serves itself: the API documentation (docs/contract.md §11), the console's
 * files (§14) and the chat widget's (§15). Never forwarded, not in the OpenAPI document; the gateway
 * counts each against the general rate limit per client IP (§3).
 */
import { jsonSchema, serviceRoutes } from "./model.ts"

const text = (description: string, contentType: string) => ({
  description,
  content: { [contentType]: jsonSchema({ type: "string" }) },
})

const redirect = (description: string) => ({ description })

export const gatewayRoutes = serviceRoutes("gateway", ["/docs", "/console", "/widget.js", "/widget", "/"], {
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
  // The console (docs/contract.md §14): its page and built files, `/` leading there.
  consoleEntry: {
    method: "GET",
    path: "/",
    access: "anonymous",
    summary: "Redirects to the console",
    tag: "Console",
    responses: { 302: redirect("To /console/") },
  },
  consoleBare: {
    method: "GET",
    path: "/console",
    access: "anonymous",
    summary: "Redirects to the console's page",
    tag: "Console",
    responses: { 301: redirect("To /console/") },
  },
  consolePage: {
    method: "GET",
    path: "/console/",
    access: "anonymous",
    summary: "The console's page (revalidated by ETag, with its Content-Security-Policy)",
    tag: "Console",
    responses: { 200: text("The page", "text/html") },
  },
  consoleFiles: {
    method: "GET",
    path: "/console/*",
    access: "anonymous",
    summary:
      "The console's content-hashed files (cached for a year), and its page for any other path (a screen's deep link)",
    tag: "Console",
    responses: { 200: text("A file of the console's build, or its page", "application/octet-stream") },
  },
  widgetLoader: {
    method: "GET",
    path: "/widget.js",
    access: "anonymous",
    summary:
      "The chat widget's loader, the one script a page embeds (docs/contract.md §15); five minutes, then its ETag",
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
