/**
 * Messaging's routes: the private API (docs/contract.md §9) and the channel ingress (§10). The cloud
 * provider's payload and subscription check are the provider's format, which messaging reads field
 * by field; they are described here by hand from docs/contract.md §10.1.
 */
import {
  BridgeChannelResponse,
  BridgeInboundRequest,
  BridgeStatusRequest,
  CampaignIdParam,
  CampaignRecord,
  CampaignStarted,
  ChannelRecord,
  CreateCampaignRequest,
  CreateTemplateRequest,
  ImportContactsResponse,
  ListCampaignRecipientsQuery,
  ListCampaignRecipientsResponse,
  ListCampaignsQuery,
  ListCampaignsResponse,
  ListChannelsResponse,
  ListContactsQuery,
  ListContactsResponse,
  ListMessagesQuery,
  ListMessagesResponse,
  ListOptOutsQuery,
  ListOptOutsResponse,
  ListTemplatesResponse,
  MediaRecord,
  PhoneDigitsParam,
  PutBridgeChannelRequest,
  PutCloudChannelRequest,
  SandboxInboundRequest,
  SandboxInboundResponse,
  SandboxOutboxQuery,
  SandboxOutboxResponse,
  SandboxTemplateUpdateRequest,
  SendMessageRequest,
  SendMessageResponse,
  TemplateIdParam,
  TemplateRecord,
} from "../messaging.ts"
import {
  csvBody,
  jsonBody,
  jsonReply,
  jsonSchema,
  MiB,
  mediaBody,
  noContent,
  param,
  schema,
  serviceRoutes,
  signedJsonBody,
} from "./model.ts"

/**
 * docs/contract.md §9 lets a campaign name up to 100,000 recipients, which do not fit §1's 1 MiB of JSON
 * (≈ 2.8 MB written as "+1 (415) 555-0100"); this route alone gets room for that.
 */
export const CAMPAIGN_BODY_LIMIT = 4 * MiB
/** The cloud provider batches changes into one payload of up to a few MB. */
export const CLOUD_WEBHOOK_BODY_LIMIT = 4 * MiB
/** What `POST /api/media` takes (docs/contract.md §9). */
export const MEDIA_TYPES = ["image/*", "video/*", "audio/*", "application/pdf"] as const
export const MEDIA_BODY_LIMIT = 16 * MiB
/** docs/contract.md §1: a contacts import is up to 10 MiB of CSV. */
export const IMPORT_BODY_LIMIT = 10 * MiB

const CloudWebhookPayload = {
  type: "object",
  description:
    "The WhatsApp Business Cloud API's webhook payload: `messages` changes (messages and statuses) and template status, quality and category updates.",
  properties: {
    object: { const: "whatsapp_business_account" },
    entry: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "string", description: "The business account id (matches template updates)." },
          changes: {
            type: "array",
            items: {
              type: "object",
              properties: {
                field: {
                  type: "string",
                  enum: [
                    "messages",
                    "message_template_status_update",
                    "message_template_quality_update",
                    "template_category_update",
                  ],
                },
                value: { type: "object" },
              },
              required: ["field", "value"],
            },
          },
        },
        required: ["id", "changes"],
      },
    },
  },
  required: ["object", "entry"],
}

const received = jsonSchema({
  type: "object",
  properties: { received: { const: true }, duplicate: { type: "boolean" } },
  required: ["received"],
})

export const messagingRoutes = serviceRoutes(
  "messaging",
  [
    "/api/channels",
    "/api/messages",
    "/api/templates",
    "/api/campaigns",
    "/api/contacts",
    "/api/media",
    "/api/sandbox",
    "/channels",
  ],
  {
    putCloudChannel: {
      method: "PUT",
      path: "/api/channels/cloud",
      access: "admin",
      summary:
        "Connect the cloud channel, verified with the provider first (the access token is never returned); or `{ sandbox: true }` for a sandbox channel",
      tag: "Channels",
      body: jsonBody(schema("PutCloudChannelRequest", PutCloudChannelRequest)),
      responses: { 200: jsonReply("The channel", schema("Channel", ChannelRecord)) },
      extraErrors: {
        409: "`conflict`: the number or business account is connected to another organization",
        503: "`unavailable`: the provider could not be asked whether the token can read the number",
      },
    },
    putBridgeChannel: {
      method: "PUT",
      path: "/api/channels/bridge",
      access: "admin",
      summary: "Connect the bridge channel (its inbound token is shown this once)",
      tag: "Channels",
      body: jsonBody(schema("PutBridgeChannelRequest", PutBridgeChannelRequest)),
      responses: { 200: jsonReply("The channel", schema("BridgeChannel", BridgeChannelResponse)) },
    },
    listChannels: {
      method: "GET",
      path: "/api/channels",
      access: "admin",
      summary: "The organization's channels",
      tag: "Channels",
      responses: { 200: jsonReply("Channels", schema("ListChannelsResponse", ListChannelsResponse)) },
    },
    sendMessage: {
      method: "POST",
      path: "/api/messages",
      access: "admin",
      summary: "Send a text or template message",
      tag: "Messages",
      body: jsonBody(schema("SendMessageRequest", SendMessageRequest)),
      responses: { 202: jsonReply("Sent to the provider", schema("SendMessageResponse", SendMessageResponse)) },
      extraErrors: {
        409: "`outside_service_window`: free-form text on the cloud channel more than 24 hours after the customer's last message (send a template); `conflict`: no channel",
      },
    },
    listMessages: {
      method: "GET",
      path: "/api/messages",
      access: "admin",
      summary: "Messages, newest first",
      tag: "Messages",
      query: schema("ListMessagesQuery", ListMessagesQuery),
      responses: { 200: jsonReply("Messages", schema("ListMessagesResponse", ListMessagesResponse)) },
    },
    listTemplates: {
      method: "GET",
      path: "/api/templates",
      access: "admin",
      summary: "Message templates",
      tag: "Templates and campaigns",
      responses: { 200: jsonReply("Templates", schema("ListTemplatesResponse", ListTemplatesResponse)) },
    },
    createTemplate: {
      method: "POST",
      path: "/api/templates",
      access: "admin",
      summary: "Submit a template to the provider (PENDING until it decides)",
      tag: "Templates and campaigns",
      body: jsonBody(schema("CreateTemplateRequest", CreateTemplateRequest)),
      responses: { 201: jsonReply("Submitted", schema("Template", TemplateRecord)) },
      extraErrors: { 409: "`conflict`: a template of that name and language exists" },
    },
    createCampaign: {
      method: "POST",
      path: "/api/campaigns",
      access: "admin",
      summary: "Send an approved template to many recipients (with `dryRun`, only count and check them)",
      tag: "Templates and campaigns",
      body: jsonBody(schema("CreateCampaignRequest", CreateCampaignRequest), { limit: CAMPAIGN_BODY_LIMIT }),
      responses: {
        202: jsonReply(
          "Started, with the counts of invalid, duplicate and opted-out recipients; with `dryRun: true` the same counts answered 200 without `id` and `status`, nothing stored or sent",
          schema("CampaignStarted", CampaignStarted),
        ),
      },
      extraErrors: {
        409: "`conflict`: the template is not APPROVED, or no cloud channel",
      },
    },
    listCampaigns: {
      method: "GET",
      path: "/api/campaigns",
      access: "admin",
      summary: "Campaigns, newest first",
      tag: "Templates and campaigns",
      query: schema("ListCampaignsQuery", ListCampaignsQuery),
      responses: { 200: jsonReply("Campaigns", schema("ListCampaignsResponse", ListCampaignsResponse)) },
    },
    listCampaignRecipients: {
      method: "GET",
      path: "/api/campaigns/:id/recipients",
      access: "admin",
      summary: "A campaign's recipients and what became of each, in list order",
      tag: "Templates and campaigns",
      params: { id: param("The campaign's id.", CampaignIdParam) },
      query: schema("ListCampaignRecipientsQuery", ListCampaignRecipientsQuery),
      responses: {
        200: jsonReply("Recipients", schema("ListCampaignRecipientsResponse", ListCampaignRecipientsResponse)),
      },
    },
    getCampaign: {
      method: "GET",
      path: "/api/campaigns/:id",
      access: "admin",
      summary: "A campaign's progress",
      tag: "Templates and campaigns",
      params: { id: param("The campaign's id.", CampaignIdParam) },
      responses: { 200: jsonReply("The campaign", schema("Campaign", CampaignRecord)) },
    },
    importContacts: {
      method: "POST",
      path: "/api/contacts/import",
      access: "admin",
      heavy: true,
      summary: "Import contacts from CSV (a `phone` column, optional `name`), up to 10 MiB",
      tag: "Contacts and media",
      body: csvBody(IMPORT_BODY_LIMIT),
      responses: { 200: jsonReply("Imported", schema("ImportContactsResponse", ImportContactsResponse)) },
    },
    listOptOuts: {
      method: "GET",
      path: "/api/contacts/opt-outs",
      access: "admin",
      summary: "Customers who opted out (a stop word), newest first",
      tag: "Contacts and media",
      query: schema("ListOptOutsQuery", ListOptOutsQuery),
      responses: { 200: jsonReply("Opt-outs", schema("ListOptOutsResponse", ListOptOutsResponse)) },
    },
    deleteOptOut: {
      method: "DELETE",
      path: "/api/contacts/opt-outs/:phone",
      access: "admin",
      summary: "The customer asked to receive marketing again",
      tag: "Contacts and media",
      params: { phone: param("International digits.", PhoneDigitsParam) },
      responses: { 204: noContent("Removed from the opt-out list (also when it was not on it)") },
    },
    listContacts: {
      method: "GET",
      path: "/api/contacts",
      access: "admin",
      summary: "Contacts, newest first",
      tag: "Contacts and media",
      query: schema("ListContactsQuery", ListContactsQuery),
      responses: { 200: jsonReply("Contacts", schema("ListContactsResponse", ListContactsResponse)) },
    },
    uploadMedia: {
      method: "POST",
      path: "/api/media",
      access: "admin",
      heavy: true,
      summary: "Upload media (raw bytes, up to 16 MiB)",
      tag: "Contacts and media",
      body: mediaBody(MEDIA_TYPES, MEDIA_BODY_LIMIT),
      responses: { 201: jsonReply("Stored", schema("Media", MediaRecord)) },
    },
    sandboxInbound: {
      method: "POST",
      path: "/api/sandbox/inbound",
      access: "admin",
      summary: "Sandbox: a customer writes to the sandbox number (through the provider ingress)",
      tag: "Sandbox",
      body: jsonBody(schema("SandboxInboundRequest", SandboxInboundRequest)),
      responses: { 202: jsonReply("Accepted", schema("SandboxInboundResponse", SandboxInboundResponse)) },
      extraErrors: { 409: "`conflict`: the organization's cloud channel is not a sandbox" },
    },
    sandboxTemplateUpdate: {
      method: "POST",
      path: "/api/sandbox/templates/:id",
      access: "admin",
      summary: "Sandbox: the provider decides, re-scores or re-categorizes a template",
      tag: "Sandbox",
      params: { id: param("The template's id.", TemplateIdParam) },
      body: jsonBody(schema("SandboxTemplateUpdateRequest", SandboxTemplateUpdateRequest)),
      responses: { 202: jsonReply("Accepted", jsonSchema({ type: "object", properties: {} })) },
      extraErrors: { 409: "`conflict`: the organization's cloud channel is not a sandbox" },
    },
    sandboxOutbox: {
      method: "GET",
      path: "/api/sandbox/outbox",
      access: "member",
      summary: "Sandbox: what the sandbox provider received from Parley, newest first",
      tag: "Sandbox",
      query: schema("SandboxOutboxQuery", SandboxOutboxQuery),
      responses: { 200: jsonReply("Messages", schema("SandboxOutboxResponse", SandboxOutboxResponse)) },
    },
    cloudWebhookVerify: {
      method: "GET",
      path: "/channels/cloud/webhook",
      access: "cloudProvider",
      summary: "The cloud provider's subscription check",
      tag: "Channel ingress",
      query: jsonSchema({
        type: "object",
        properties: {
          "hub.mode": { const: "subscribe" },
          "hub.verify_token": { type: "string", description: "PARLEY_CLOUD_VERIFY_TOKEN" },
          "hub.challenge": { type: "string" },
        },
        required: ["hub.mode", "hub.verify_token", "hub.challenge"],
      }),
      responses: { 200: { description: "The challenge", content: { "text/plain": jsonSchema({ type: "string" }) } } },
      extraErrors: { 403: "The verify token is wrong" },
    },
    cloudWebhook: {
      method: "POST",
      path: "/channels/cloud/webhook",
      access: "cloudProvider",
      summary: "The cloud provider's notifications, signed with `X-Hub-Signature-256`",
      tag: "Channel ingress",
      body: signedJsonBody(jsonSchema(CloudWebhookPayload), { limit: CLOUD_WEBHOOK_BODY_LIMIT }),
      responses: { 200: jsonReply("Durably accepted", received) },
    },
    bridgeInbound: {
      method: "POST",
      path: "/channels/bridge/inbound",
      access: "bridge",
      summary: "A message received by the bridge",
      tag: "Channel ingress",
      body: jsonBody(schema("BridgeInboundRequest", BridgeInboundRequest)),
      responses: { 200: jsonReply("Accepted", received) },
    },
    bridgeStatus: {
      method: "POST",
      path: "/channels/bridge/status",
      access: "bridge",
      summary: "A status the bridge reports for a message sent through it",
      tag: "Channel ingress",
      description:
        "`message.status` fires only for a message the organization sent through its bridge (`messageId` is Parley's id, as posted to the bridge); a redelivered status answers `duplicate: true` and fires nothing.",
      body: jsonBody(schema("BridgeStatusRequest", BridgeStatusRequest)),
      responses: { 200: jsonReply("Accepted", received) },
      extraErrors: {
        404: "`not_found`: `messageId` names no message this organization sent through its bridge (another organization's included); nothing fires",
      },
    },
  },
)
