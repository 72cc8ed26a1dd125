export { clientOptions, connect, Database, type DatabaseOptions, databaseUrl } from "./Database.ts"
export {
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  isRunning,
  startEmbeddedPostgres,
} from "./embedded/index.ts"
export { type GroupCommit, type GroupCommitOptions, makeGroupCommit } from "./group-commit.ts"
export { jsonb } from "./jsonb.ts"
export { loadMigrations, type Migration, migrate, quoteIdentifier } from "./migrate.ts"
export { atCommit, withTransaction } from "./transaction.ts"
export { Wakeup } from "./wakeup.ts"
