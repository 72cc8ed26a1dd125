import {
  CreateCampaignRequest,
  CreateTemplateRequest,
  ListContactsQuery,
  ListMessagesQuery,
  normalizePhone,
  PutBridgeChannelRequest,
  PutCloudChannelRequest,
  SendMessageRequest,
} from "@parley/contracts"
import {
  decodeBody,
  decodeParams,
  decodeQuery,
  effectHandler,
  type InternalSecret,
  invalidRequest,
  mediaTypeMatches,
  rawBodyOf,
  requirePrincipal,
  unsupportedMediaType,
} from "@parley/platform"
import { Effect, type ManagedRuntime, Schema } from "effect"
import type { FastifyInstance } from "fastify"
import { CAMPAIGN_BODY_LIMIT_BYTES, createCampaign, getCampaign } from "../campaigns/campaigns.ts"
import { putBridgeChannel, putCloudChannel } from "../channels/configure.ts"
import { listChannels, toChannel } from "../channels/repository.ts"
import { type ImportRefused, importContacts, listContacts } from "../contacts/contacts.ts"
import { MEDIA_LIMIT_BYTES, MEDIA_TYPES, storeMedia } from "../media/media.ts"
import { listMessages } from "../messages/list.ts"
import { sendMessage } from "../messages/send.ts"
import type { MessagingServices } from "../resources.ts"
import { createTemplate, listTemplates } from "../templates/templates.ts"
import { asApiErrors, tenantOf } from "./tenant.ts"

const IMPORT_LIMIT_BYTES = 10 * 1024 * 1024
const CampaignParams = Schema.Struct({ id: Schema.String.check(Schema.isMaxLength(100)) })
const badCursor = invalidRequest("cursor is not one this API issued", [{ path: "cursor", message: "is not valid" }])

/** The tenant routes of CONTRACT.md §9 that messaging owns, behind the gateway's signed principal. */
export const registerApiRoutes = (
  app: FastifyInstance,
  runtime: ManagedRuntime.ManagedRuntime<MessagingServices, never>,
  internalSecret: InternalSecret,
) =>
  app.register(async (api) => {
    api.addHook("preHandler", requirePrincipal(internalSecret))
    const route = (handler: Parameters<typeof effectHandler<unknown, MessagingServices, never>>[1]) =>
      effectHandler(runtime, handler)

    api.put(
      "/api/channels/cloud",
      route((request) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const body = yield* decodeBody(PutCloudChannelRequest)(request)
          return yield* putCloudChannel(orgId, body)
        }).pipe(asApiErrors),
      ),
    )

    api.put(
      "/api/channels/bridge",
      route((request) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const body = yield* decodeBody(PutBridgeChannelRequest)(request)
          return yield* putBridgeChannel(orgId, body)
        }).pipe(asApiErrors),
      ),
    )

    api.get(
      "/api/channels",
      route((request) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          return { data: (yield* listChannels(orgId)).map(toChannel) }
        }),
      ),
    )

    api.post(
      "/api/messages",
      route((request, reply) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const body = yield* decodeBody(SendMessageRequest)(request)
          const sent = yield* sendMessage(orgId, {
            to: normalizePhone(body.to),
            channel: body.channel,
            content: "template" in body ? { type: "template", ...body.template } : { type: "text", text: body.text },
          })
          reply.code(202)
          return { id: sent?.id, messageId: sent?.messageId, status: "sent" as const }
        }).pipe(asApiErrors),
      ),
    )

    api.get(
      "/api/messages",
      route((request) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const query = yield* decodeQuery(ListMessagesQuery)(request)
          const page = yield* listMessages(orgId, {
            limit: query.limit ?? 50,
            ...(query.phone === undefined ? {} : { phone: normalizePhone(query.phone) }),
            ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
          })
          return page ?? (yield* Effect.fail(badCursor))
        }),
      ),
    )

    api.get(
      "/api/templates",
      route((request) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          return { data: yield* listTemplates(orgId) }
        }),
      ),
    )

    api.post(
      "/api/templates",
      route((request, reply) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const body = yield* decodeBody(CreateTemplateRequest)(request)
          const template = yield* createTemplate(orgId, body)
          reply.code(201)
          return template
        }).pipe(asApiErrors),
      ),
    )

    api.post(
      "/api/campaigns",
      { bodyLimit: CAMPAIGN_BODY_LIMIT_BYTES },
      route((request, reply) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const body = yield* decodeBody(CreateCampaignRequest)(request)
          const created = yield* createCampaign(orgId, body)
          reply.code(202)
          return created
        }).pipe(asApiErrors),
      ),
    )

    api.get(
      "/api/campaigns/:id",
      route((request) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const { id } = yield* decodeParams(CampaignParams)(request)
          return yield* getCampaign(orgId, id)
        }).pipe(asApiErrors),
      ),
    )

    api.post(
      "/api/contacts/import",
      { bodyLimit: IMPORT_LIMIT_BYTES, config: { rawBody: { mediaTypes: ["text/csv"] } } },
      route((request) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const bytes = rawBodyOf(request)
          // Fed to the streaming reader in 64 KiB slices: memory beyond the body stays one record.
          const chunks = function* () {
            for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536)
          }
          return yield* importContacts(orgId, chunks()).pipe(
            Effect.mapError((refused: ImportRefused) =>
              invalidRequest(refused.message, [{ path: "body", message: refused.message }]),
            ),
          )
        }),
      ),
    )

    api.get(
      "/api/contacts",
      route((request) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          const query = yield* decodeQuery(ListContactsQuery)(request)
          const page = yield* listContacts(orgId, query.limit ?? 50, query.cursor)
          return page ?? (yield* Effect.fail(badCursor))
        }),
      ),
    )

    api.post(
      "/api/media",
      { bodyLimit: MEDIA_LIMIT_BYTES, config: { rawBody: { mediaTypes: [...MEDIA_TYPES] } } },
      route((request, reply) =>
        Effect.gen(function* () {
          const orgId = yield* tenantOf(request)
          if (!mediaTypeMatches(MEDIA_TYPES, request.headers["content-type"])) {
            return yield* Effect.fail(unsupportedMediaType())
          }
          const bytes = rawBodyOf(request)
          if (bytes.length === 0) return yield* Effect.fail(invalidRequest("the body is empty"))
          const contentType = (request.headers["content-type"] ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? ""
          const stored = yield* storeMedia(orgId, contentType, bytes)
          reply.code(201)
          return stored
        }),
      ),
    )
  })
