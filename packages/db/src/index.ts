export { clientOptions, Database } from "./Database.ts"
export { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded.ts"
export { type GroupCommit, type GroupCommitOptions, makeGroupCommit } from "./group-commit.ts"
export { loadMigrations, type Migration, migrate, quoteIdentifier } from "./migrate.ts"
export {
  notifyOutbox,
  type OutboxRelayOptions,
  type OutboxRow,
  outboxChannel,
  outboxTableSql,
  runOutboxRelay,
} from "./outbox.ts"
export { withTransaction } from "./transaction.ts"
export { inProcessChannel, Wakeup } from "./wakeup.ts"
