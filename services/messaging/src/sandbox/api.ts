import type { OrgId, SandboxOutboxRecord, SandboxTemplateUpdateRequest } from "@parley/contracts"
import { Database } from "@parley/db"
import { decodePageCursor } from "@parley/platform"
import { Effect, Option } from "effect"
import { findChannel } from "../channels/repository.ts"
import { InvalidInput, NotFound, NotSandbox } from "../errors.ts"
import { acceptProviderPayload } from "../inbound/cloud-accept.ts"
import type { CloudIngress } from "../inbound/cloud-ingest.ts"
import { ListKeys, pageOf } from "../paging/paging.ts"
import { inboundPayload, templatePayloads } from "./payloads.ts"
import { sandboxMessageId } from "./provider.ts"

/** The organization's cloud channel when it is a sandbox; 409 otherwise. */
const sandboxChannel = (orgId: OrgId) =>
  Effect.gen(function* () {
    const channel = yield* findChannel(orgId, "cloud")
    if (Option.isNone(channel) || !channel.value.sandbox || channel.value.business_account_id === null) {
      return yield* new NotSandbox()
    }
    return channel.value
  })

/**
 * `POST /api/sandbox/inbound`: a customer writes to the sandbox number. The message is the
 * provider's webhook payload, taken through the provider ingress (durable acceptance, dedup by its
 * id), so `message.inbound` fires and the assistant answers exactly as with a real provider.
 */
export const sandboxInbound = (
  cloudIngress: CloudIngress["Service"],
  orgId: OrgId,
  message: { from: string; name?: string | undefined; text: string },
  now: Date,
) =>
  Effect.gen(function* () {
    const channel = yield* sandboxChannel(orgId)
    const messageId = sandboxMessageId()
    yield* acceptProviderPayload(
      cloudIngress,
      inboundPayload({
        businessAccountId: channel.business_account_id ?? "",
        phoneNumberId: channel.phone_number_id ?? "",
        displayPhoneNumber: channel.display_phone_number ?? "",
        from: message.from,
        name: message.name ?? "",
        text: message.text,
        messageId,
        at: now,
      }),
      now,
    )
    return { messageId }
  })

/**
 * `POST /api/sandbox/templates/:id`: the provider decides about a template, re-scores it or moves
 * it to another category, each as the provider's own update through the ingress.
 */
export const sandboxTemplateUpdate = (
  cloudIngress: CloudIngress["Service"],
  orgId: OrgId,
  templateId: string,
  update: SandboxTemplateUpdateRequest,
  now: Date,
) =>
  Effect.gen(function* () {
    if (update.status === undefined && update.qualityScore === undefined && update.category === undefined) {
      return yield* Effect.fail(
        new InvalidInput({
          what: "give a status, a qualityScore or a category",
          issues: [{ path: "status", message: "one of status, qualityScore or category is required" }],
        }),
      )
    }
    const { sql } = yield* Database
    const [template] = yield* Effect.promise(
      () => sql<
        Array<{
          name: string
          language: string
          category: string
          quality_score: string | null
          meta_template_id: string | null
        }>
      >`
        select name, language, category, quality_score, meta_template_id from messaging.templates
        where org_id = ${orgId} and id = ${templateId}`,
    )
    if (template === undefined) return yield* new NotFound()
    const channel = yield* sandboxChannel(orgId)
    const payloads = templatePayloads(
      channel.business_account_id ?? "",
      {
        metaTemplateId: template.meta_template_id,
        name: template.name,
        language: template.language,
        qualityScore: template.quality_score,
        category: template.category,
      },
      update,
    )
    for (const payload of payloads) yield* acceptProviderPayload(cloudIngress, payload, now)
    return {}
  })

interface OutboxRow {
  message_id: string
  recipient: string
  type: "text" | "template"
  text: string
  template: { name: string; language: string; variables: Array<string> } | null
  status: SandboxOutboxRecord["status"]
  sent_at: Date
  cursor_at: string
  id: string
}

/** `GET /api/sandbox/outbox`: what the sandbox provider received from Parley, newest first. */
export const listSandboxOutbox = (orgId: OrgId, options: { phone?: string; limit: number; cursor?: string }) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const after = options.cursor === undefined ? undefined : decodePageCursor(options.cursor, ListKeys.sandboxOutbox)
    if (options.cursor !== undefined && after === undefined) return undefined
    const rows = yield* Effect.promise(
      () => sql<Array<OutboxRow>>`
        select message_id, message_id as id, recipient, type, text, template, status, sent_at,
               sent_at::text as cursor_at
        from messaging.sandbox_outbox
        where org_id = ${orgId}
          ${options.phone === undefined ? sql`` : sql`and recipient = ${options.phone}`}
          ${after === undefined ? sql`` : sql`and (sent_at, message_id) < (${after.at}::text::timestamptz, ${after.key})`}
        order by sent_at desc, message_id desc limit ${options.limit + 1}`,
    )
    return pageOf(
      rows,
      options.limit,
      (row): SandboxOutboxRecord => ({
        messageId: row.message_id,
        to: row.recipient,
        type: row.type,
        text: row.text,
        template: row.template,
        status: row.status,
        sentAt: row.sent_at.toISOString(),
      }),
    )
  })
