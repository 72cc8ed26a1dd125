import { MEDIA_TYPES, normalizePhone } from "@parley/contracts"
import { invalidRequest, mediaTypeMatches, unsupportedMediaType } from "@parley/platform"
import { Effect } from "effect"
import { createCampaign, getCampaign } from "../campaigns/campaigns.ts"
import { putBridgeChannel, putCloudChannel } from "../channels/configure.ts"
import { type ImportRefused, importContacts, listContacts } from "../contacts/contacts.ts"
import { storeMedia } from "../media/media.ts"
import { listMessages } from "../messages/list.ts"
import { sendMessage } from "../messages/send.ts"
import { createTemplate, listTemplates } from "../templates/templates.ts"
import type { MessagingHandlers } from "./tenant.ts"

export const badCursor = invalidRequest("cursor is not one this API issued", [
  { path: "cursor", message: "is not valid" },
])

/** The tenant routes of CONTRACT.md §9 that messaging owns, behind the gateway's signed principal. */
export const apiHandlers = {
  putCloudChannel: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* putCloudChannel(principal.orgId, yield* body)
    }),

  putBridgeChannel: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* putBridgeChannel(principal.orgId, yield* body)
    }),

  sendMessage: ({ principal, body }) =>
    Effect.gen(function* () {
      const request = yield* body
      const sent = yield* sendMessage(principal.orgId, {
        to: normalizePhone(request.to),
        channel: request.channel,
        content:
          "template" in request ? { type: "template", ...request.template } : { type: "text", text: request.text },
      })
      return { id: sent?.id, messageId: sent?.messageId, status: "sent" as const }
    }),

  listMessages: ({ principal, query }) =>
    Effect.gen(function* () {
      const page = yield* listMessages(principal.orgId, {
        limit: query.limit ?? 50,
        ...(query.phone === undefined ? {} : { phone: normalizePhone(query.phone) }),
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      })
      return page ?? (yield* Effect.fail(badCursor))
    }),

  listTemplates: ({ principal }) => listTemplates(principal.orgId).pipe(Effect.map((data) => ({ data }))),

  createTemplate: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* createTemplate(principal.orgId, yield* body)
    }),

  createCampaign: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* createCampaign(principal.orgId, yield* body)
    }),

  getCampaign: ({ principal, params }) => getCampaign(principal.orgId, params.id),

  importContacts: ({ principal, body }) =>
    Effect.gen(function* () {
      const bytes = yield* body
      // Fed to the streaming reader in 64 KiB slices: memory beyond the body stays one record.
      const chunks = function* () {
        for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536)
      }
      return yield* importContacts(principal.orgId, chunks()).pipe(
        Effect.mapError((refused: ImportRefused) =>
          invalidRequest(refused.message, [{ path: "body", message: refused.message }]),
        ),
      )
    }),

  listContacts: ({ principal, query }) =>
    Effect.gen(function* () {
      const page = yield* listContacts(principal.orgId, query.limit ?? 50, query.cursor)
      return page ?? (yield* Effect.fail(badCursor))
    }),

  uploadMedia: ({ principal, body, request }) =>
    Effect.gen(function* () {
      if (!mediaTypeMatches(MEDIA_TYPES, request.headers["content-type"])) {
        return yield* Effect.fail(unsupportedMediaType())
      }
      const bytes = yield* body
      if (bytes.length === 0) return yield* Effect.fail(invalidRequest("the body is empty"))
      const contentType = (request.headers["content-type"] ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? ""
      return yield* storeMedia(principal.orgId, contentType, bytes)
    }),
} satisfies Partial<MessagingHandlers>
