/**
 * Operations of messaging: the private API (CONTRACT.md §9) and the channel ingress (§10). The
 * cloud provider's payload is the provider's format, which messaging reads field by field; it is
 * described here by hand from CONTRACT.md §10.1.
 */
import { Schema } from "effect"
import {
  BridgeInboundRequest,
  BridgeStatusRequest,
  CampaignRecord,
  ChannelRecord,
  ContactRecord,
  CreateCampaignRequest,
  CreateTemplateRequest,
  ImportContactsResponse,
  ListContactsQuery,
  ListMessagesQuery,
  MediaRecord,
  MessageRecord,
  PutBridgeChannelRequest,
  PutCloudChannelRequest,
  SendMessageRequest,
  SendMessageResponse,
  TemplateRecord,
} from "../messaging.ts"
import { jsonBody, jsonReply, jsonSchema, type Operation, schema } from "./model.ts"

const page = <S extends Schema.Top>(record: S) =>
  Schema.Struct({ data: Schema.Array(record), nextCursor: Schema.NullOr(Schema.String) })

export const ListChannelsResponse = Schema.Struct({ data: Schema.Array(ChannelRecord) })
export const BridgeChannelResponse = Schema.Struct({ ...ChannelRecord.fields, inboundToken: Schema.String })
export const ListMessagesResponse = page(MessageRecord)
export const ListTemplatesResponse = Schema.Struct({ data: Schema.Array(TemplateRecord) })
export const ListContactsResponse = page(ContactRecord)
export const CampaignStarted = Schema.Struct({
  id: Schema.String,
  status: Schema.Literal("running"),
  totalRecipients: Schema.Number,
})

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

const mediaTypes = ["image/*", "video/*", "audio/*", "application/pdf"] as const
const bytes = jsonSchema({ type: "string", contentMediaType: "application/octet-stream" })

export const messagingOperations: ReadonlyArray<Operation> = [
  {
    method: "put",
    path: "/api/channels/cloud",
    operationId: "putCloudChannel",
    summary: "Connect the cloud channel (the access token is never returned)",
    tag: "Channels",
    access: "admin",
    body: jsonBody(schema("PutCloudChannelRequest", PutCloudChannelRequest)),
    responses: { 200: jsonReply("The channel", schema("Channel", ChannelRecord)) },
  },
  {
    method: "put",
    path: "/api/channels/bridge",
    operationId: "putBridgeChannel",
    summary: "Connect the bridge channel (its inbound token is shown this once)",
    tag: "Channels",
    access: "admin",
    body: jsonBody(schema("PutBridgeChannelRequest", PutBridgeChannelRequest)),
    responses: { 200: jsonReply("The channel", schema("BridgeChannel", BridgeChannelResponse)) },
  },
  {
    method: "get",
    path: "/api/channels",
    operationId: "listChannels",
    summary: "The organization's channels",
    tag: "Channels",
    access: "admin",
    responses: { 200: jsonReply("Channels", schema("ListChannelsResponse", ListChannelsResponse)) },
  },
  {
    method: "post",
    path: "/api/messages",
    operationId: "sendMessage",
    summary: "Send a text or template message",
    tag: "Messages",
    access: "admin",
    body: jsonBody(schema("SendMessageRequest", SendMessageRequest)),
    responses: { 202: jsonReply("Sent to the provider", schema("SendMessageResponse", SendMessageResponse)) },
  },
  {
    method: "get",
    path: "/api/messages",
    operationId: "listMessages",
    summary: "Messages, newest first",
    tag: "Messages",
    access: "admin",
    query: schema("ListMessagesQuery", ListMessagesQuery),
    responses: { 200: jsonReply("Messages", schema("ListMessagesResponse", ListMessagesResponse)) },
  },
  {
    method: "get",
    path: "/api/templates",
    operationId: "listTemplates",
    summary: "Message templates",
    tag: "Templates and campaigns",
    access: "admin",
    responses: { 200: jsonReply("Templates", schema("ListTemplatesResponse", ListTemplatesResponse)) },
  },
  {
    method: "post",
    path: "/api/templates",
    operationId: "createTemplate",
    summary: "Submit a template to the provider (PENDING until it decides)",
    tag: "Templates and campaigns",
    access: "admin",
    body: jsonBody(schema("CreateTemplateRequest", CreateTemplateRequest)),
    responses: { 201: jsonReply("Submitted", schema("Template", TemplateRecord)) },
    extraErrors: { 409: "`conflict`: a template of that name and language exists" },
  },
  {
    method: "post",
    path: "/api/campaigns",
    operationId: "createCampaign",
    summary: "Send an approved template to many recipients",
    tag: "Templates and campaigns",
    access: "admin",
    body: jsonBody(schema("CreateCampaignRequest", CreateCampaignRequest)),
    responses: { 202: jsonReply("Started", schema("CampaignStarted", CampaignStarted)) },
  },
  {
    method: "get",
    path: "/api/campaigns/{id}",
    operationId: "getCampaign",
    summary: "A campaign's progress",
    tag: "Templates and campaigns",
    access: "admin",
    pathParams: { id: "The campaign's id." },
    responses: { 200: jsonReply("The campaign", schema("Campaign", CampaignRecord)) },
  },
  {
    method: "post",
    path: "/api/contacts/import",
    operationId: "importContacts",
    summary: "Import contacts from CSV (a `phone` column, optional `name`), up to 10 MiB",
    tag: "Contacts and media",
    access: "admin",
    heavy: true,
    body: { content: { "text/csv": jsonSchema({ type: "string" }) } },
    responses: { 200: jsonReply("Imported", schema("ImportContactsResponse", ImportContactsResponse)) },
  },
  {
    method: "get",
    path: "/api/contacts",
    operationId: "listContacts",
    summary: "Contacts, newest first",
    tag: "Contacts and media",
    access: "admin",
    query: schema("ListContactsQuery", ListContactsQuery),
    responses: { 200: jsonReply("Contacts", schema("ListContactsResponse", ListContactsResponse)) },
  },
  {
    method: "post",
    path: "/api/media",
    operationId: "uploadMedia",
    summary: "Upload media (raw bytes, up to 16 MiB)",
    tag: "Contacts and media",
    access: "admin",
    heavy: true,
    body: { content: Object.fromEntries(mediaTypes.map((type) => [type, bytes])) },
    responses: { 201: jsonReply("Stored", schema("Media", MediaRecord)) },
  },
  {
    method: "get",
    path: "/channels/cloud/webhook",
    operationId: "cloudWebhookVerify",
    summary: "The cloud provider's subscription check",
    tag: "Channel ingress",
    access: "cloudProvider",
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
  {
    method: "post",
    path: "/channels/cloud/webhook",
    operationId: "cloudWebhook",
    summary: "The cloud provider's notifications, signed with `X-Hub-Signature-256`",
    tag: "Channel ingress",
    access: "cloudProvider",
    body: jsonBody(jsonSchema(CloudWebhookPayload)),
    responses: { 200: jsonReply("Durably accepted", received) },
  },
  {
    method: "post",
    path: "/channels/bridge/inbound",
    operationId: "bridgeInbound",
    summary: "A message received by the bridge",
    tag: "Channel ingress",
    access: "bridge",
    body: jsonBody(schema("BridgeInboundRequest", BridgeInboundRequest)),
    responses: { 200: jsonReply("Accepted", received) },
  },
  {
    method: "post",
    path: "/channels/bridge/status",
    operationId: "bridgeStatus",
    summary: "A status the bridge reports for a message sent through it",
    tag: "Channel ingress",
    access: "bridge",
    body: jsonBody(schema("BridgeStatusRequest", BridgeStatusRequest)),
    responses: { 200: jsonReply("Accepted", received) },
  },
]
