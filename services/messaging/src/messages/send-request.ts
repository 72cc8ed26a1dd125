import type { OrgId, SendMessageRequest } from "@parley/contracts"
import { Database } from "@parley/db"
import { Clock, Effect, Option } from "effect"
import { resolveSendChannel } from "../channels/repository.ts"
import { InvalidInput, OptedOutOfMarketing, OutsideServiceWindow } from "../errors.ts"
import { countryOf } from "../numbers/org-country.ts"
import { readPhoneNumber } from "../numbers/phone-number.ts"
import { bodyVariableCount, variablesProblem } from "../templates/variables.ts"
import type { OutboundMessage } from "./send.ts"

/** The provider's customer-service window: free-form text only this long after the customer wrote. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * `POST /api/messages` as the messaging network requires it (docs/contract.md §9), before anything is
 * recorded: `to` read with the organization's country (400 naming it when unreadable), a template's
 * `{{1}}`…`{{n}}` each given a value (400 naming the missing one; an unknown template is left to
 * the provider, which refuses it — the sandbox's too), no MARKETING template to a number that opted out (409; nor one
 * Parley does not know, whose category it cannot tell), and free-form text on the cloud channel only
 * within 24 hours of the customer's last message (409 `outside_service_window`). The bridge is a
 * number of the business's own and has no such window. UTILITY and AUTHENTICATION templates and
 * replies within the window still go to a number that opted out: it refused marketing, not answers.
 */
export const outboundOfRequest = (orgId: OrgId, request: SendMessageRequest) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const read = readPhoneNumber(request.to, yield* countryOf(sql, orgId))
    if ("error" in read) {
      return yield* new InvalidInput({ what: `to ${read.error}`, issues: [{ path: "to", message: read.error }] })
    }
    const to = read.digits
    if (request.template !== undefined) {
      const { name, language } = request.template
      // The template and whether the number opted out, in one statement: a row even without the template.
      const [known] = yield* Effect.promise(
        () => sql<
          Array<{
            components: ReadonlyArray<Record<string, unknown>> | null
            category: string | null
            opted_out: boolean
          }>
        >`
          select t.components, t.category,
                 exists (select 1 from messaging.opt_outs where org_id = ${orgId} and phone = ${to}) as opted_out
          from (select) as one
          left join messaging.templates t on t.org_id = ${orgId} and t.name = ${name} and t.language = ${language}`,
      )
      const variables = request.template.variables ?? []
      const problem =
        known?.components == null ? undefined : variablesProblem(bodyVariableCount(known.components), variables)
      if (problem !== undefined) {
        return yield* new InvalidInput({
          what: `template.variables: ${problem}`,
          issues: [{ path: "template.variables", message: problem }],
        })
      }
      // An opt-out refuses marketing (docs/contract.md §9); a template Parley does not know may be marketing.
      if (known?.opted_out === true && known.category !== "UTILITY" && known.category !== "AUTHENTICATION") {
        return yield* new OptedOutOfMarketing({
          phone: to,
          template: known.category === null ? { name, language } : undefined,
        })
      }
      return {
        to,
        channel: request.channel,
        content: { type: "template", name, language, variables },
      } satisfies OutboundMessage
    }
    const channel = yield* resolveSendChannel(orgId, request.channel)
    if (Option.isSome(channel) && channel.value.kind === "cloud") {
      const [last] = yield* Effect.promise(
        () => sql<Array<{ at: Date | null }>>`
          select max(created_at) as at from messaging.messages
          where org_id = ${orgId} and phone = ${to} and direction = 'inbound' and channel = 'cloud'`,
      )
      const now = yield* Clock.currentTimeMillis
      if (last?.at == null || now - last.at.getTime() > SERVICE_WINDOW_MS) return yield* new OutsideServiceWindow()
    }
    return { to, channel: request.channel, content: { type: "text", text: request.text } } satisfies OutboundMessage
  })
