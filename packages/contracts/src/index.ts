/**
 * @parley/contracts — the shapes Parley's packages and services agree on: events (from
 * @parley/webhooks), error codes and texts, ids, scopes, the principal, bus topics and records.
 * Schemas and pure functions only; no I/O.
 */
export * from "./api/index.ts"
export * from "./bus/channel.ts"
export * from "./bus/codec.ts"
export * from "./bus/dispatch.ts"
export * from "./bus/events.ts"
export * from "./bus/keys.ts"
export * from "./bus/members.ts"
export * from "./bus/settings.ts"
export * from "./bus/webhooks.ts"
export * from "./errors.ts"
export * from "./events.ts"
export * from "./ids.ts"
export * from "./instant.ts"
export * from "./principal.ts"
export * from "./scopes.ts"
export * from "./topics.ts"
export * from "./validation.ts"
export * from "./values.ts"
