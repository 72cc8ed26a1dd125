export type { EmbeddedPostgres, EmbeddedPostgresOptions } from "./server.ts"
export { startEmbeddedPostgres } from "./server.ts"
