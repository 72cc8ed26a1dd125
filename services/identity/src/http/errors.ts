/** The one place identity's domain errors become docs/contract.md's status, code and text. */
import { ErrorText } from "@parley/contracts"
import {
  type ApiError,
  conflict,
  forbidden,
  invalidRequest,
  notFound,
  rateLimited,
  unauthorized,
} from "@parley/platform"
import type { IdentityError } from "../errors.ts"
import { WeakPasswordText } from "../passwords/password-strength.ts"

export const toApiError = (error: IdentityError): ApiError => {
  switch (error._tag) {
    case "InvalidCredentials":
      return unauthorized(ErrorText.invalidCredentials)
    case "LoginThrottled":
      return rateLimited(error.retryAfterSeconds)
    case "SessionRequired":
      return unauthorized(ErrorText.sessionRequired)
    case "InvalidOperatorToken":
      return unauthorized("Invalid operator token")
    case "OperatorApiDisabled":
    case "ResourceNotFound":
      return notFound()
    case "PlanFeatureRequired":
      return forbidden("plan_feature_required", ErrorText.planFeatureRequired(error.feature))
    case "KeyLimitReached":
      return forbidden("key_limit", ErrorText.keyLimit)
    case "EmailTaken":
      return conflict("A user with this email already exists")
    case "CannotRemoveSelf":
      return conflict("You cannot remove yourself; another administrator can")
    case "LastAdministrator":
      return conflict("An organization must keep at least one administrator")
    case "WrongCurrentPassword":
      // 400, not 401: the session is fine (a 401 would sign the console out); the field is wrong.
      return invalidRequest("currentPassword is not your current password", [
        { path: "currentPassword", message: "is not your current password" },
      ])
    case "WeakPassword":
      return invalidRequest(`${error.path} ${WeakPasswordText}`, [{ path: error.path, message: WeakPasswordText }])
    default:
      return error satisfies never
  }
}
