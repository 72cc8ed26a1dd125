/**
 * Identity's routes: sessions (docs/contract.md §2.4), the operator API (§2.5), members and API keys
 * (§4), and the lookups the gateway makes (docs/internal-apis.md).
 */
import {
  ApiKeyRecord,
  ChangePasswordRequest,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreateMemberRequest,
  CreateOrganizationRequest,
  CreateOrganizationResponse,
  CurrentUserResponse,
  IdentityPathParams,
  KeyLookupRequest,
  ListApiKeysResponse,
  ListMembersResponse,
  LoginRequest,
  MemberRecord,
  OrganizationRecord,
  SessionLookupRequest,
  UpdateMemberRequest,
  UpdateOrganizationRequest,
} from "../identity.ts"
import { jsonBody, jsonReply, jsonSchema, noContent, param, schema, serviceRoutes } from "./model.ts"

const id = { id: param("The resource's id; another organization's id answers 404.", IdentityPathParams.fields.id) }

const setCookie = {
  "Set-Cookie": {
    description: "`parley_session=…; HttpOnly; SameSite=Lax; Path=/` (`Secure` when the public URL is https).",
    schema: { type: "string" },
  },
}

const lookupAnswer = (description: string) => jsonReply(description, jsonSchema({ type: "object" }))

export const identityRoutes = serviceRoutes(
  "identity",
  ["/api/operator", "/api/auth", "/api/org/members", "/api/org/api-keys", "/internal"],
  {
    createOrganization: {
      method: "POST",
      path: "/api/operator/organizations",
      access: "operator",
      summary: "Create an organization and its first administrator",
      tag: "Operator",
      body: jsonBody(schema("CreateOrganizationRequest", CreateOrganizationRequest)),
      responses: { 201: jsonReply("Created", schema("CreateOrganizationResponse", CreateOrganizationResponse)) },
      extraErrors: { 409: "`conflict`: the administrator's email is taken" },
    },
    updateOrganization: {
      method: "PATCH",
      path: "/api/operator/organizations/:id",
      access: "operator",
      summary: "Rename an organization or change its plan features",
      tag: "Operator",
      params: id,
      body: jsonBody(schema("UpdateOrganizationRequest", UpdateOrganizationRequest)),
      responses: { 200: jsonReply("The organization", schema("Organization", OrganizationRecord)) },
    },
    getOrganization: {
      method: "GET",
      path: "/api/operator/organizations/:id",
      access: "operator",
      summary: "Read an organization",
      tag: "Operator",
      params: id,
      responses: { 200: jsonReply("The organization", schema("Organization", OrganizationRecord)) },
    },
    login: {
      method: "POST",
      path: "/api/auth/login",
      access: "anonymous",
      summary: "Start a dashboard session",
      tag: "Sessions",
      description:
        "Wrong credentials answer 401 `Invalid email or password`, the same for an unknown email. An email may " +
        "belong to several organizations, each membership with its own password: the session is for " +
        "`organizationId` when given (a password that is not that membership's, or an email that is not a " +
        "member of it, gets the same 401), else for the first membership joined that this password opens.",
      body: jsonBody(schema("LoginRequest", LoginRequest)),
      responses: {
        200: { ...jsonReply("Signed in", schema("CurrentUser", CurrentUserResponse)), headers: setCookie },
      },
    },
    logout: {
      method: "POST",
      path: "/api/auth/logout",
      access: "session",
      summary: "End the session (deleted server-side)",
      tag: "Sessions",
      responses: { 204: noContent("Signed out") },
    },
    currentUser: {
      method: "GET",
      path: "/api/auth/me",
      access: "session",
      summary: "The session's user and organization",
      tag: "Sessions",
      responses: { 200: jsonReply("The current user", schema("CurrentUser", CurrentUserResponse)) },
    },
    changePassword: {
      method: "PUT",
      path: "/api/auth/password",
      access: "session",
      summary: "Change one's own password; one's other sessions end",
      tag: "Sessions",
      description:
        "The new password follows the rules of a member's (at least 10 characters, not easy to guess). The session that asks stays signed in; every other session of the user ends.",
      body: jsonBody(schema("ChangePasswordRequest", ChangePasswordRequest)),
      responses: { 204: noContent("Changed") },
      extraErrors: {
        400: "`invalid_request`: `Invalid request: currentPassword is not your current password` (with `issues`), or the new password is too short or easy to guess",
        429: "`rate_limited`: wrong current passwords count against the account like failed logins; after five in a row it is locked (`Retry-After`)",
      },
    },
    createMember: {
      method: "POST",
      path: "/api/org/members",
      access: "admin",
      summary: "Add a member",
      tag: "Members",
      description:
        "An email may belong to several organizations. Adding an email that already has an account (in another " +
        "organization) adds a membership that signs in with the `password` given here — never with a password " +
        "another organization set — and the answer is the same 201 as for a new person, so it tells nothing " +
        "about other organizations' users. 409 only when the email is already a member of this organization.",
      body: jsonBody(schema("CreateMemberRequest", CreateMemberRequest)),
      responses: { 201: jsonReply("Created", schema("Member", MemberRecord)) },
      extraErrors: { 409: "`conflict`: the email is already a member of this organization" },
    },
    listMembers: {
      method: "GET",
      path: "/api/org/members",
      access: "member",
      summary: "List the organization's members",
      tag: "Members",
      responses: { 200: jsonReply("The members", schema("ListMembersResponse", ListMembersResponse)) },
    },
    updateMember: {
      method: "PATCH",
      path: "/api/org/members/:id",
      access: "admin",
      summary: "Change a member's role (takes effect on their next request)",
      tag: "Members",
      params: id,
      body: jsonBody(schema("UpdateMemberRequest", UpdateMemberRequest)),
      responses: { 200: jsonReply("The member", schema("Member", MemberRecord)) },
      extraErrors: {
        409: "`conflict`: `An organization must keep at least one administrator` (the last administrator made a member)",
      },
    },
    deleteMember: {
      method: "DELETE",
      path: "/api/org/members/:id",
      access: "admin",
      summary: "Remove a member; their sessions end",
      tag: "Members",
      params: id,
      responses: { 204: noContent("Removed") },
    },
    createApiKey: {
      method: "POST",
      path: "/api/org/api-keys",
      access: "adminWithApiAccess",
      summary: "Create an API key (the full key is shown this once)",
      tag: "API keys",
      body: jsonBody(schema("CreateApiKeyRequest", CreateApiKeyRequest)),
      responses: { 201: jsonReply("Created", schema("CreatedApiKey", CreatedApiKey)) },
      extraErrors: { 403: "`key_limit`: `Maximum 10 active API keys`" },
    },
    listApiKeys: {
      method: "GET",
      path: "/api/org/api-keys",
      access: "admin",
      summary: "List API keys, revoked ones included",
      tag: "API keys",
      responses: { 200: jsonReply("The keys", schema("ListApiKeysResponse", ListApiKeysResponse)) },
    },
    getApiKey: {
      method: "GET",
      path: "/api/org/api-keys/:id",
      access: "admin",
      summary: "Read an API key",
      tag: "API keys",
      params: id,
      responses: { 200: jsonReply("The key", schema("ApiKeyRecord", ApiKeyRecord)) },
    },
    revokeApiKey: {
      method: "DELETE",
      path: "/api/org/api-keys/:id",
      access: "adminWithApiAccess",
      summary: "Revoke an API key (a revoked key answers the same record)",
      tag: "API keys",
      params: id,
      responses: { 200: jsonReply("The revoked key", schema("ApiKeyRecord", ApiKeyRecord)) },
    },
    lookupKey: {
      method: "POST",
      path: "/internal/keys/lookup",
      access: "internal",
      summary: "The key with this digest (revoked ones too, so the gateway can cache the refusal)",
      tag: "Internal",
      body: jsonBody(schema("KeyLookupRequest", KeyLookupRequest)),
      responses: { 200: lookupAnswer("`{ keyId, orgId, prefix, scopes, allowedOrigins, revokedAt, orgFeatures }`") },
    },
    lookupSession: {
      method: "POST",
      path: "/internal/sessions/lookup",
      access: "internal",
      summary: "The live session whose token has this digest",
      tag: "Internal",
      body: jsonBody(schema("SessionLookupRequest", SessionLookupRequest)),
      responses: { 200: lookupAnswer("`{ sessionId, userId, orgId, role, expiresAt }`") },
    },
  },
)
