/**
 * What can go wrong in the assistant that a caller can act on. Infrastructure failures are defects
 * (500 `Internal error`); everything here maps to docs/contract.md's `{ error, code }` in `http/errors.ts`.
 */
import { Schema } from "effect"

/** Missing, or another organization's: the same answer, so existence does not leak. */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {}) {}

/**
 * A booking (or a slot listing) the calendar cannot take:
 * - `pastDate`: listing the slots of a day before today in the organization's time zone (400);
 * - `unknownService`: the service is not one the organization offers (409, "not offered");
 * - `notOffered`: no slot starts at that time on that date (409);
 * - `started`: the slot has already started, today or on a past day (409);
 * - `full`: the slot holds `capacity` bookings (409).
 */
export class BookingRefused extends Schema.TaggedError<BookingRefused>()("BookingRefused", {
  reason: Schema.Literals(["pastDate", "unknownService", "notOffered", "started", "full"]),
  detail: Schema.String,
}) {}

export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()("InvalidCursor", {}) {}

/** A member who does not hold a conversation (and is not an administrator) tried to act in it (409). */
export class ConversationHeld extends Schema.TaggedError<ConversationHeld>()("ConversationHeld", {}) {}

/** A person's free-form reply to a cloud-channel customer silent for 24 hours (docs/contract.md §9, 409). */
export class OutsideServiceWindow extends Schema.TaggedError<OutsideServiceWindow>()("OutsideServiceWindow", {}) {}

export type AssistantError = ResourceNotFound | BookingRefused | InvalidCursor | ConversationHeld | OutsideServiceWindow
