import { Schema } from "effect"

/**
 * The messaging domain's failures a caller can act on; infrastructure failures are defects. Each
 * becomes docs/contract.md's `{ error, code }` in `http/errors.ts`, the one mapping.
 */

export class ChannelNotConfigured extends Schema.TaggedError<ChannelNotConfigured>()("ChannelNotConfigured", {
  kind: Schema.String,
}) {}

/** The provider refused the request itself (a 4xx other than rate limiting): retrying will not help. */
export class ProviderRejected extends Schema.TaggedError<ProviderRejected>()("ProviderRejected", {
  detail: Schema.String,
}) {}

/** The provider is down, slow, or rate-limiting: the same request may succeed later. */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()("ProviderUnavailable", {
  detail: Schema.String,
  rateLimited: Schema.Boolean,
}) {}

export class DuplicateTemplate extends Schema.TaggedError<DuplicateTemplate>()("DuplicateTemplate", {}) {}

export class TemplateNotApproved extends Schema.TaggedError<TemplateNotApproved>()("TemplateNotApproved", {
  name: Schema.String,
  language: Schema.String,
}) {}

/** A template name and language the organization never created through Parley. */
export class UnknownTemplate extends Schema.TaggedError<UnknownTemplate>()("UnknownTemplate", {
  name: Schema.String,
  language: Schema.String,
}) {}

/**
 * A MARKETING template (or one Parley does not know, named in `template`, whose category it cannot
 * tell) to a number that opted out (docs/contract.md §9): nothing was recorded or sent.
 */
export class OptedOutOfMarketing extends Schema.TaggedError<OptedOutOfMarketing>()("OptedOutOfMarketing", {
  phone: Schema.String,
  template: Schema.optional(Schema.Struct({ name: Schema.String, language: Schema.String })),
}) {}

export class PhoneNumberTaken extends Schema.TaggedError<PhoneNumberTaken>()("PhoneNumberTaken", {}) {}

export class BusinessAccountTaken extends Schema.TaggedError<BusinessAccountTaken>()("BusinessAccountTaken", {}) {}

export class InvalidOutboundUrl extends Schema.TaggedError<InvalidOutboundUrl>()("InvalidOutboundUrl", {
  reason: Schema.String,
}) {}

/** A sandbox route (docs/contract.md §16) for an organization whose cloud channel is not a sandbox. */
export class NotSandbox extends Schema.TaggedError<NotSandbox>()("NotSandbox", {}) {}

/** The provider refused to let the token read the number (docs/contract.md §10.1): nothing was stored. */
export class ChannelRefused extends Schema.TaggedError<ChannelRefused>()("ChannelRefused", {
  field: Schema.Literals(["accessToken", "phoneNumberId"]),
  detail: Schema.String,
}) {}

/**
 * A request the schema let through but the organization's data refuses (a number, a template
 * variable), or a body that cannot be read (empty, malformed): `what` completes `Invalid request: …`.
 */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  what: Schema.String,
  issues: Schema.optional(Schema.Array(Schema.Struct({ path: Schema.String, message: Schema.String }))),
}) {}

/** A list `cursor` this API did not issue. */
export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()("InvalidCursor", {}) {}

/** An upload whose type is not one of the media types (docs/contract.md §9). */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {}) {}

/** A provider callback whose `X-Hub-Signature-256` is missing or wrong. */
export class InvalidSignature extends Schema.TaggedError<InvalidSignature>()("InvalidSignature", {}) {}

/** A bridge call with no bearer token (`missing`) or one no bridge channel holds (`unknown`). */
export class BridgeTokenRefused extends Schema.TaggedError<BridgeTokenRefused>()("BridgeTokenRefused", {
  reason: Schema.Literals(["missing", "unknown"]),
}) {}

/** Free-form text to a cloud customer whose last message is older than 24 hours (docs/contract.md §9). */
export class OutsideServiceWindow extends Schema.TaggedError<OutsideServiceWindow>()("OutsideServiceWindow", {}) {}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {}) {}

export type MessagingError =
  | ChannelNotConfigured
  | ProviderRejected
  | ProviderUnavailable
  | DuplicateTemplate
  | TemplateNotApproved
  | UnknownTemplate
  | OptedOutOfMarketing
  | PhoneNumberTaken
  | BusinessAccountTaken
  | InvalidOutboundUrl
  | NotSandbox
  | ChannelRefused
  | InvalidInput
  | InvalidCursor
  | UnsupportedMediaType
  | InvalidSignature
  | BridgeTokenRefused
  | OutsideServiceWindow
  | NotFound
