export type { EmbeddedPostgres, EmbeddedPostgresOptions } from "./server.ts"
export { startEmbeddedPostgres } from "./server.ts"
export { isRunning } from "./stale-server.ts"
