/** The one place the gateway's refusals become docs/contract.md's status, code and text. */
import { ErrorText } from "@parley/contracts"
import {
  type ApiError,
  forbidden,
  invalidRequest,
  notFound,
  payloadTooLarge,
  rateLimited,
  unauthorized,
  unavailable,
  unsupportedMediaType,
} from "@parley/platform"
import type { GatewayError } from "../errors.ts"

export const toApiError = (error: GatewayError): ApiError => {
  switch (error._tag) {
    case "CredentialRequired":
      return unauthorized(ErrorText[error.text])
    case "InvalidApiKey":
      return unauthorized(ErrorText.invalidApiKey)
    case "SessionExpired":
      return unauthorized(ErrorText.sessionRequired)
    case "OriginNotAllowed":
      return forbidden("origin_not_allowed", ErrorText.originNotAllowed)
    case "CrossSiteRequest":
      // The table's code and its text, exactly (docs/contract.md §1), though the text names API keys.
      return forbidden("origin_not_allowed", ErrorText.originNotAllowed)
    case "MissingScope":
      return forbidden("missing_scope", ErrorText.missingScope(error.scope))
    case "WidgetKeyForbidden":
      return forbidden("widget_key_forbidden", ErrorText.widgetKeyForbidden)
    case "RateLimited":
      return rateLimited(error.retryAfterSeconds)
    case "UnsupportedMediaType":
      return unsupportedMediaType()
    case "PayloadTooLarge":
      return payloadTooLarge()
    case "InvalidBody":
      return invalidRequest(error.what)
    case "NoSuchRoute":
      return notFound()
    case "ServiceUnreachable":
      return unavailable()
    default:
      return error satisfies never
  }
}
