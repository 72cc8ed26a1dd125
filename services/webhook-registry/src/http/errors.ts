/** The one place the registry's domain errors become docs/contract.md's status, code and text. */
import { ErrorText, InvalidCursorText } from "@parley/contracts"
import { type ApiError, forbidden, invalidRequest, notFound } from "@parley/platform"
import type { RegistryError } from "../errors.ts"

export const toApiError = (error: RegistryError): ApiError => {
  switch (error._tag) {
    case "ResourceNotFound":
      return notFound()
    case "WebhookLimitReached":
      return forbidden("webhook_limit", ErrorText.webhookLimit)
    case "EmptyReplayWindow":
      return invalidRequest("until must be later than since", [{ path: "until", message: "must be later than since" }])
    case "InvalidCursor":
      return invalidRequest(InvalidCursorText, [{ path: "cursor", message: "is not valid" }])
    case "UrlRefused":
      return invalidRequest(`url ${error.reason}`, [{ path: "url", message: error.reason }])
    default:
      return error satisfies never
  }
}
