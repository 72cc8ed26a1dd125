import { InvalidCursorText } from "@parley/contracts"
import {
  type ApiError,
  conflict,
  invalidRequest,
  notFound,
  outsideServiceWindow,
  unauthorized,
  unavailable,
  unsupportedMediaType,
} from "@parley/platform"
import type { MessagingError } from "../errors.ts"

/**
 * The one mapping from domain failures to docs/contract.md's statuses and codes. Provider refusals are
 * the caller's to fix (recipient, template, token), so they are 400s naming the provider's answer;
 * an unreachable or rate-limiting provider is a dependency down: 503 with `Retry-After`.
 */
export const toApiError = (error: MessagingError): ApiError => {
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
    case "UnknownTemplate":
      return conflict(`Template ${error.name} (${error.language}) does not exist`)
    case "OptedOutOfMarketing":
      return conflict(
        error.template === undefined
          ? `${error.phone} opted out of marketing messages (STOP): a MARKETING template is not sent`
          : `${error.phone} opted out of marketing messages (STOP): template ${error.template.name} (${error.template.language}) is not one Parley knows, so it may be marketing and is not sent`,
      )
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
    case "InvalidCursor":
      return invalidRequest(InvalidCursorText, [{ path: "cursor", message: "is not valid" }])
    case "UnsupportedMediaType":
      return unsupportedMediaType()
    case "InvalidSignature":
      return unauthorized("Invalid signature")
    case "BridgeTokenRefused":
      return unauthorized(error.reason === "missing" ? "Bridge token required" : "Invalid bridge token")
    case "OutsideServiceWindow":
      return outsideServiceWindow()
    case "NotFound":
      return notFound()
    default:
      return error satisfies never
  }
}
