import { randomBytes, randomInt } from "node:crypto"
import type { Wakeup } from "@parley/db"
import { Effect, Schema } from "effect"
import type postgres from "postgres"
import type { StoredChannel } from "../channels/repository.ts"
import { classifyProviderAnswer } from "../cloud/graph-client.ts"
import type { CloudProvider } from "../cloud/provider.ts"

/**
 * The sandbox provider (docs/contract.md §16): the provider adapter of a sandbox channel, beside the
 * Graph API client behind the same port. It "accepts" a message by storing it in its own outbox
 * (`messaging.sandbox_outbox`, what `GET /api/sandbox/outbox` lists) and answering a provider id;
 * `reporter.ts` then reports it sent → delivered → read through the provider ingress. A number
 * ending in 0000 is refused as the provider refuses an undeliverable one: HTTP 400, error 131026,
 * no message id. A template is sent only as the provider sends it: one of the organization's
 * templates (the sandbox is where they were submitted) that is APPROVED; any other is refused with
 * the provider's error (132001 missing or not approved, 132015 paused, 132016 disabled), so a
 * developer does not take an unusable template for one that works. It never calls anything outside
 * this database.
 */

/** The recipients the sandbox refuses, so that failures can be tried too. */
export const isUndeliverable = (to: string): boolean => to.endsWith("0000")

/** The Graph API's body for an undeliverable recipient, classified like a real refusal. */
const undeliverable = {
  error: {
    message: "(#131026) Message undeliverable",
    type: "OAuthException",
    code: 131026,
    error_data: { messaging_product: "whatsapp", details: "Message undeliverable (sandbox: numbers ending in 0000)" },
  },
}

/** The Graph API's refusal of a template it would not send, by the template's status (none: unknown). */
export const templateRefusal = (status: string | undefined) => {
  const [code, message] =
    status === "PAUSED"
      ? [132015, "(#132015) Template is Paused"]
      : status === "DISABLED"
        ? [132016, "(#132016) Template is disabled"]
        : [132001, "(#132001) Template name does not exist in the translation"]
  return {
    error: {
      message,
      type: "OAuthException",
      code,
      error_data: {
        messaging_product: "whatsapp",
        details:
          status === undefined
            ? "template name (or language) does not exist (sandbox: create it first)"
            : `template status is ${status} (sandbox: approve it on the Templates screen)`,
      },
    },
  }
}

const Refusal = Schema.String

/** A provider message id in the provider's shape (`wamid.` and base64). */
export const sandboxMessageId = () => `wamid.${randomBytes(18).toString("base64url")}`

/** A provider numeric id (15 digits, like the provider's phone number and account ids). */
export const sandboxNumericId = () => `${randomInt(1, 10)}${String(randomInt(0, 1e14)).padStart(14, "0")}`

export const makeSandboxProvider =
  (sql: postgres.Sql, reporter: Wakeup) =>
  (channel: StoredChannel): CloudProvider => ({
    sendMessage: (message, clientRef) =>
      Effect.promise(async () => {
        if (isUndeliverable(message.to)) return classifyProviderAnswer(400, undeliverable, Refusal)
        if (message.type === "template") {
          const [known] = await sql<Array<{ status: string }>>`
            select status from messaging.templates
            where org_id = ${channel.org_id} and name = ${message.template.name} and language = ${message.template.language}`
          if (known?.status !== "APPROVED") return classifyProviderAnswer(400, templateRefusal(known?.status), Refusal)
        }
        const template =
          message.type === "template"
            ? {
                name: message.template.name,
                language: message.template.language,
                variables: message.template.variables ?? [],
              }
            : null
        // A second send with the same client reference (a resumed send) gets the first one's id.
        const [row] = await sql<Array<{ message_id: string }>>`
          insert into messaging.sandbox_outbox
            (message_id, org_id, phone_number_id, client_ref, recipient, type, text, template, status, next_status_at)
          values (${sandboxMessageId()}, ${channel.org_id}, ${channel.phone_number_id ?? ""}, ${clientRef},
                  ${message.to}, ${message.type}, ${message.type === "text" ? message.text : ""},
                  ${template === null ? null : sql.json(template)}, 'accepted',
                  now() + ${STATUS_STEPS.accepted.afterMs} * interval '1 millisecond')
          on conflict (org_id, client_ref) do update set client_ref = excluded.client_ref
          returning message_id`
        reporter.notify()
        return { _tag: "Accepted" as const, value: (row as { message_id: string }).message_id }
      }),
    submitTemplate: (template) =>
      Effect.succeed({
        _tag: "Accepted" as const,
        value: { id: sandboxNumericId(), status: "PENDING", category: template.category },
      }),
  })

/** What the sandbox reports after each state, and how long after it. */
export const STATUS_STEPS = {
  accepted: { next: "sent", afterMs: 400 },
  sent: { next: "delivered", afterMs: 1000 },
  delivered: { next: "read", afterMs: 1500 },
} as const
