/**
 * What can go wrong in the registry that a caller can act on. Infrastructure failures are defects
 * (500, or 503 when a dependency is unreachable); each of these becomes docs/contract.md's `{ error, code }`
 * in `http/errors.ts`. A body that fails its Schema is answered by the route registration
 * before any of these (400 naming every field).
 */
import type { UrlRefused } from "@parley/egress"
import { Schema } from "effect"

/** Missing, or another organization's (webhook or delivery): the same answer, so existence does not leak. */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {}) {}

/** A sixth webhook (docs/contract.md §5). */
export class WebhookLimitReached extends Schema.TaggedError<WebhookLimitReached>()("WebhookLimitReached", {}) {}

/** A replay window written out as empty: `until` not later than `since`. */
export class EmptyReplayWindow extends Schema.TaggedError<EmptyReplayWindow>()("EmptyReplayWindow", {}) {}

/** A `cursor` this API did not issue. */
export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()("InvalidCursor", {}) {}

/** `UrlRefused` (`@parley/egress`): a webhook URL whose host is not, or does not resolve only to, public addresses. */
export type RegistryError = ResourceNotFound | WebhookLimitReached | EmptyReplayWindow | InvalidCursor | UrlRefused
