/**
 * Operations of the assistant: the widget surface and the assistant's profile (CONTRACT.md §8), and
 * leads and bookings (§9).
 */
import { Schema } from "effect"
import {
  AssistantProfileRecord,
  BookingRecord,
  BookingSettingsRecord,
  ChatRequest,
  ChatResetRequest,
  ChatResponse,
  ChatTranscript,
  CreateBookingRequest,
  LeadRecord,
  ListBookingsQuery,
  ListedBooking,
  ListLeadsQuery,
  PutAssistantProfileRequest,
  PutBookingSettingsRequest,
  SlotsQuery,
  SlotsResponse,
} from "../assistant.ts"
import { jsonBody, jsonReply, jsonSchema, type Operation, schema } from "./model.ts"

/** List answers built from the services' record Schemas (CONTRACT.md §1's `{ data, nextCursor }`). */
export const ListLeadsResponse = Schema.Struct({
  data: Schema.Array(LeadRecord),
  nextCursor: Schema.NullOr(Schema.String),
})
export const ListBookingsResponse = Schema.Struct({
  data: Schema.Array(ListedBooking),
  nextCursor: Schema.NullOr(Schema.String),
})

const widgetKeyNote =
  "The key may come as `X-API-Key`, `Authorization: Bearer`, a JSON body field `apiKey` (removed before the body reaches the service) or `?apiKey=`, in that precedence."

export const assistantOperations: ReadonlyArray<Operation> = [
  {
    method: "post",
    path: "/api/public/chat",
    operationId: "widgetChat",
    summary: "Send a visitor message; a new session when `sessionId` is absent or unknown",
    tag: "Widget",
    access: "public",
    scope: "chat:write",
    description: widgetKeyNote,
    body: jsonBody(schema("ChatRequest", ChatRequest)),
    responses: { 200: jsonReply("The assistant's reply", schema("ChatResponse", ChatResponse)) },
  },
  {
    method: "post",
    path: "/api/public/chat/reset",
    operationId: "widgetChatReset",
    summary: "Clear a conversation (its lead is kept)",
    tag: "Widget",
    access: "public",
    scope: "chat:write",
    description: widgetKeyNote,
    body: jsonBody(schema("ChatResetRequest", ChatResetRequest)),
    responses: {
      200: jsonReply(
        "Cleared",
        jsonSchema({ type: "object", properties: { sessionId: { type: "string" } }, required: ["sessionId"] }),
      ),
    },
  },
  {
    method: "get",
    path: "/api/public/chat/{sessionId}",
    operationId: "widgetChatTranscript",
    summary: "A session's messages, oldest first",
    tag: "Widget",
    access: "public",
    scope: "chat:read",
    description: widgetKeyNote,
    pathParams: { sessionId: "The widget session." },
    responses: { 200: jsonReply("The transcript", schema("ChatTranscript", ChatTranscript)) },
  },
  {
    method: "get",
    path: "/api/public/bookings/slots",
    operationId: "widgetBookingSlots",
    summary: "The slots of a day and whether each is free",
    tag: "Widget",
    access: "public",
    scope: "bookings:read",
    description: widgetKeyNote,
    query: schema("SlotsQuery", SlotsQuery),
    responses: { 200: jsonReply("The slots", schema("SlotsResponse", SlotsResponse)) },
  },
  {
    method: "post",
    path: "/api/public/bookings",
    operationId: "widgetCreateBooking",
    summary: "Book a slot; records (or updates) the lead for that phone",
    tag: "Widget",
    access: "public",
    scope: "bookings:write",
    description: widgetKeyNote,
    body: jsonBody(schema("CreateBookingRequest", CreateBookingRequest)),
    responses: { 201: jsonReply("Booked", schema("BookingRecord", BookingRecord)) },
    extraErrors: { 409: "`conflict`: the slot is full or not offered" },
  },
  {
    method: "get",
    path: "/api/leads",
    operationId: "listLeads",
    summary: "Leads, newest first",
    tag: "Leads and bookings",
    access: "admin",
    query: schema("ListLeadsQuery", ListLeadsQuery),
    responses: { 200: jsonReply("Leads", schema("ListLeadsResponse", ListLeadsResponse)) },
  },
  {
    method: "get",
    path: "/api/leads/export",
    operationId: "exportLeads",
    summary: "Every lead as CSV",
    tag: "Leads and bookings",
    access: "admin",
    heavy: true,
    responses: {
      200: {
        description: "`text/csv` of every lead, one row each, with a header row",
        content: { "text/csv": jsonSchema({ type: "string" }) },
      },
    },
  },
  {
    method: "get",
    path: "/api/bookings",
    operationId: "listBookings",
    summary: "Bookings, optionally of one day",
    tag: "Leads and bookings",
    access: "admin",
    query: schema("ListBookingsQuery", ListBookingsQuery),
    responses: { 200: jsonReply("Bookings", schema("ListBookingsResponse", ListBookingsResponse)) },
  },
  {
    method: "delete",
    path: "/api/bookings/{id}",
    operationId: "cancelBooking",
    summary: "Cancel a booking: it stays listed as cancelled, frees its place, and its lead loses it (`lead.updated`)",
    tag: "Leads and bookings",
    access: "admin",
    pathParams: { id: "The booking (`bkg_…`)." },
    responses: { 200: jsonReply('The booking, `status: "cancelled"`', schema("ListedBooking", ListedBooking)) },
  },
  {
    method: "get",
    path: "/api/assistant/profile",
    operationId: "getAssistantProfile",
    summary: "The assistant's profile: business name, languages, greeting, about, FAQ, hand-off message",
    tag: "Assistant",
    access: "member",
    responses: { 200: jsonReply("The profile", schema("AssistantProfile", AssistantProfileRecord)) },
  },
  {
    method: "put",
    path: "/api/assistant/profile",
    operationId: "putAssistantProfile",
    summary: "Set what the assistant knows and the languages it answers in (the first is the default)",
    tag: "Assistant",
    access: "admin",
    body: jsonBody(schema("PutAssistantProfileRequest", PutAssistantProfileRequest)),
    responses: { 200: jsonReply("The profile", schema("AssistantProfile", AssistantProfileRecord)) },
  },
  {
    method: "get",
    path: "/api/bookings/settings",
    operationId: "getBookingSettings",
    summary: "The booking settings (new organizations start with CONTRACT.md §9's defaults)",
    tag: "Leads and bookings",
    access: "admin",
    responses: { 200: jsonReply("The settings", schema("BookingSettings", BookingSettingsRecord)) },
  },
  {
    method: "put",
    path: "/api/bookings/settings",
    operationId: "putBookingSettings",
    summary:
      "Set the time zone, country (how phone numbers are read), services, slot length, capacity and opening hours",
    tag: "Leads and bookings",
    access: "admin",
    body: jsonBody(schema("PutBookingSettingsRequest", PutBookingSettingsRequest)),
    responses: { 200: jsonReply("The settings", schema("BookingSettings", BookingSettingsRecord)) },
  },
]
