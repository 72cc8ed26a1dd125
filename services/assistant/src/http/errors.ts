import { InvalidCursorText } from "@parley/contracts"
import { type ApiError, conflict, invalidRequest, notFound, outsideServiceWindow } from "@parley/platform"
import type { AssistantError } from "../errors.ts"

/** The one place the assistant's domain errors become docs/contract.md's status, code and text. */
export const toApiError = (error: AssistantError): ApiError => {
  switch (error._tag) {
    case "ResourceNotFound":
      return notFound()
    case "InvalidCursor":
      return invalidRequest(InvalidCursorText, [{ path: "cursor", message: "is not valid" }])
    case "BookingRefused":
      return error.reason === "pastDate"
        ? invalidRequest("date is in the past", [{ path: "date", message: "is in the past" }])
        : conflict(error.detail)
    case "ConversationHeld":
      return conflict("Conversation is held by another member")
    case "OutsideServiceWindow":
      return outsideServiceWindow()
    default:
      return error satisfies never
  }
}
