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
 * no message id. It never calls anything outside this database.
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
