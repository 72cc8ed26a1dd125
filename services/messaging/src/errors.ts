import { type ApiError, conflict, invalidRequest, notFound, outsideServiceWindow, unavailable } from "@parley/platform"
import { Schema } from "effect"

/** The messaging domain's failures a caller can act on; infrastructure failures are defects. */

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

/** A request the schema let through but the organization's data refuses: a number, a template variable. */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  what: Schema.String,
  issues: Schema.Array(Schema.Struct({ path: Schema.String, message: Schema.String })),
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
  | PhoneNumberTaken
  | BusinessAccountTaken
  | InvalidOutboundUrl
  | NotSandbox
  | ChannelRefused
  | InvalidInput
  | OutsideServiceWindow
  | NotFound

/**
 * The one mapping from domain failures to docs/contract.md's statuses and codes. Provider refusals are
 * the caller's to fix (recipient, template, token), so they are 400s naming the provider's answer;
 * an unreachable or rate-limiting provider is a dependency down: 503 with `Retry-After`.
 */
export const apiErrorOf = (error: MessagingError): ApiError => {
  switch (error._tag) {
    case "ChannelNotConfigured":
      return conflict(`No ${error.kind} channel is configured for this organization`)
    case "ProviderRejected":
      return invalidRequest(`the provider refused the request (${error.detail})`)
    case "ProviderUnavailable":
      return unavailable(error.rateLimited ? 10 : 5)
    case "DuplicateTemplate":
      return conflict("A template with this name and language already exists")
    case "TemplateNotApproved":
      return conflict(`Template ${error.name} (${error.language}) is not approved`)
    case "PhoneNumberTaken":
      return conflict("This phone number is connected to another organization")
    case "BusinessAccountTaken":
      return conflict("This business account is connected to another organization")
    case "InvalidOutboundUrl":
      return invalidRequest(`outboundUrl ${error.reason}`, [{ path: "outboundUrl", message: error.reason }])
    case "NotSandbox":
      return conflict('The cloud channel is not a sandbox: connect one with { "sandbox": true } first')
    case "ChannelRefused": {
      const why =
        error.field === "accessToken"
          ? "the provider refused the access token"
          : "the provider does not know this phone number id, or the access token cannot read it"
      return invalidRequest(`${error.field}: ${why} (${error.detail})`, [{ path: error.field, message: why }])
    }
    case "InvalidInput":
      return invalidRequest(error.what, error.issues)
    case "OutsideServiceWindow":
      return outsideServiceWindow()
    case "NotFound":
      return notFound()
  }
}
