// Request and response body schemas of each service's HTTP API, one module per service
// (`./identity.ts`, `./webhook-registry.ts`, …) re-exported here. See README.md.
export * from "./assistant.ts"
export * from "./conversations.ts"
export * from "./identity.ts"
export * from "./messaging.ts"
export * from "./openapi.ts"
export { InvalidCursorText } from "./page-limit.ts"
export * from "./routes/index.ts"
export * from "./webhooks.ts"
