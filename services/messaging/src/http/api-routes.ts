import { MEDIA_TYPES, normalizePhone } from "@parley/contracts"
import { Database } from "@parley/db"
import { mediaTypeMatches } from "@parley/platform"
import { Effect } from "effect"
import { createCampaign, getCampaign, listCampaignRecipients, listCampaigns } from "../campaigns/campaigns.ts"
import { putBridgeChannel, putCloudChannel } from "../channels/configure.ts"
import { type ImportRefused, importContacts, listContacts } from "../contacts/contacts.ts"
import { listOptOuts, removeOptOut } from "../contacts/opt-outs.ts"
import { InvalidCursor, InvalidInput, UnsupportedMediaType } from "../errors.ts"
import { storeMedia } from "../media/media.ts"
import { listMessages } from "../messages/list.ts"
import { sendMessage } from "../messages/send.ts"
import { outboundOfRequest } from "../messages/send-request.ts"
import { countryOf } from "../numbers/org-country.ts"
import { readPhoneNumber } from "../numbers/phone-number.ts"
import { createTemplate, listTemplates } from "../templates/templates.ts"
import type { MessagingHandlers } from "./tenant.ts"

/** The tenant routes of docs/contract.md §9 that messaging owns, behind the gateway's signed principal. */
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
      const sent = yield* sendMessage(principal.orgId, yield* outboundOfRequest(principal.orgId, yield* body))
      return { id: sent?.id, messageId: sent?.messageId, status: "sent" as const }
    }),

  listMessages: ({ principal, query }) =>
    Effect.gen(function* () {
      const { sql } = yield* Database
      const read =
        query.phone === undefined ? undefined : readPhoneNumber(query.phone, yield* countryOf(sql, principal.orgId))
      const page = yield* listMessages(principal.orgId, {
        limit: query.limit ?? 50,
        // As the number was sent to: read with the organization's country, else its digits.
        ...(query.phone === undefined || read === undefined
          ? {}
          : { phone: "digits" in read ? read.digits : normalizePhone(query.phone) }),
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      })
      return page ?? (yield* Effect.fail(new InvalidCursor()))
    }),

  listTemplates: ({ principal }) => listTemplates(principal.orgId).pipe(Effect.map((data) => ({ data }))),

  createTemplate: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* createTemplate(principal.orgId, yield* body)
    }),

  createCampaign: ({ principal, body, reply }) =>
    Effect.gen(function* () {
      const created = yield* createCampaign(principal.orgId, yield* body)
      if (!created.dryRun) return created.started
      // A dry run stores and sends nothing: 200 with the counts alone (docs/contract.md §9).
      reply.code(200)
      return created.counts
    }),

  getCampaign: ({ principal, params }) => getCampaign(principal.orgId, params.id),

  listCampaigns: ({ principal, query }) =>
    Effect.gen(function* () {
      const page = yield* listCampaigns(principal.orgId, query.limit ?? 50, query.cursor)
      return page ?? (yield* Effect.fail(new InvalidCursor()))
    }),

  listCampaignRecipients: ({ principal, params, query }) =>
    Effect.gen(function* () {
      const page = yield* listCampaignRecipients(principal.orgId, params.id, {
        status: query.status,
        limit: query.limit ?? 50,
        cursor: query.cursor,
      })
      return page ?? (yield* Effect.fail(new InvalidCursor()))
    }),

  listOptOuts: ({ principal, query }) =>
    Effect.gen(function* () {
      const page = yield* listOptOuts(principal.orgId, query.limit ?? 50, query.cursor)
      return page ?? (yield* Effect.fail(new InvalidCursor()))
    }),

  deleteOptOut: ({ principal, params }) => removeOptOut(principal.orgId, params.phone),

  importContacts: ({ principal, body }) =>
    Effect.gen(function* () {
      const bytes = yield* body
      // Fed to the streaming reader in 64 KiB slices: memory beyond the body stays one record.
      const chunks = function* () {
        for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536)
      }
      const { sql } = yield* Database
      return yield* importContacts(principal.orgId, yield* countryOf(sql, principal.orgId), chunks()).pipe(
        Effect.mapError(
          (refused: ImportRefused) =>
            new InvalidInput({ what: refused.message, issues: [{ path: "body", message: refused.message }] }),
        ),
      )
    }),

  listContacts: ({ principal, query }) =>
    Effect.gen(function* () {
      const page = yield* listContacts(principal.orgId, query.limit ?? 50, query.cursor)
      return page ?? (yield* Effect.fail(new InvalidCursor()))
    }),

  uploadMedia: ({ principal, body, request }) =>
    Effect.gen(function* () {
      if (!mediaTypeMatches(MEDIA_TYPES, request.headers["content-type"])) {
        return yield* Effect.fail(new UnsupportedMediaType())
      }
      const bytes = yield* body
      if (bytes.length === 0) return yield* Effect.fail(new InvalidInput({ what: "the body is empty" }))
      const contentType = (request.headers["content-type"] ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? ""
      return yield* storeMedia(principal.orgId, contentType, bytes)
    }),
} satisfies Partial<MessagingHandlers>
