import type { OutboxWriter } from "@parley/bus"
import type { OrgId } from "@parley/contracts"
import { Effect } from "effect"
import type postgres from "postgres"
import { type LeadSource, leadOfConversation } from "../engine/lead-capture.ts"
import type { ConversationState } from "../engine/state.ts"
import { askedOffTheLead } from "./asked-off-the-lead.ts"
import { type RecordedLead, recordLead, releaseMistakenLead } from "./record-lead.ts"

/** Moves this conversation's confirmed booking from the mistaken number to the corrected one. */
const moveBookingPhone = (tx: postgres.TransactionSql, orgId: OrgId, id: string, from: string, to: string) =>
  Effect.promise(
    () => tx`
      update assistant.bookings set phone = ${to}
      where id = ${id} and org_id = ${orgId} and phone = ${from} and status = 'confirmed'
      returning id`,
  ).pipe(Effect.map((rows) => rows.length > 0))

/**
 * A widget conversation's lead after a turn: a corrected number releases only what this
 * conversation did to the mistaken one (docs/contract.md §8), the conversation's lead is recorded (a
 * known number's lead only when this conversation created it: otherwise it is left as it was,
 * `notOwn`), and the state to store remembers which leads this conversation created or changed.
 * `forStaff`: the turn asked for something the lead does not say (`askedOffTheLead`), for the Inbox.
 * Used by the assistant's turn and by a message a person's conversation receives (§17), which capture
 * alike.
 */
export const recordConversationLead = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  previous: ConversationState | undefined,
  next: ConversationState,
  source: LeadSource,
): Effect.Effect<
  { readonly recorded: RecordedLead | null; readonly state: ConversationState; readonly forStaff: boolean },
  never,
  OutboxWriter
> =>
  Effect.gen(function* () {
    // What this conversation made: as stored, and a lead its booking created this turn (the turn's state).
    const made = { ...previous?.leads, ...next.leads }
    const before = previous?.phone
    if (before !== undefined && next.phone !== undefined && next.phone !== before) {
      // A booking this conversation made follows the corrected number (the visitor's, said as such).
      const moved =
        next.bookingId !== undefined && next.booking !== undefined
          ? yield* moveBookingPhone(tx, orgId, next.bookingId, before, next.phone)
          : false
      yield* releaseMistakenLead(tx, orgId, before, made[before], moved ? (next.booking ?? null) : null)
      delete made[before]
    }
    const found = leadOfConversation(next, source)
    // A number is this conversation's own once it created that number's lead.
    const capture = found !== undefined && made[found.phone]?.created === true ? { ...found, own: true } : found
    const recorded = capture === undefined ? null : yield* recordLead(tx, orgId, capture)
    // A lead left as it was (another conversation's) is not one this conversation made or changed.
    if (
      recorded !== null &&
      recorded.outcome !== "notOwn" &&
      capture !== undefined &&
      made[capture.phone] === undefined
    ) {
      made[capture.phone] = {
        created: recorded.outcome === "created",
        ...(recorded.before === undefined ? {} : { before: recorded.before }),
      }
    }
    const { leads: _previousLeads, ...rest } = next
    const previousCapture = previous === undefined ? undefined : leadOfConversation(previous, source)
    return {
      recorded,
      state: Object.keys(made).length === 0 ? rest : { ...rest, leads: made },
      forStaff: recorded !== null && capture !== undefined && askedOffTheLead(previousCapture, capture, recorded),
    }
  })

/**
 * The chat's `lead`: the one this conversation made (created, or changed as its own), else `null` —
 * never the id or type of another visitor's lead that a number typed here matched (docs/contract.md §8).
 */
export const leadOfAnswer = (lead: RecordedLead | null): { readonly id: string; readonly type: string } | null =>
  lead === null || lead.outcome === "notOwn" ? null : { id: lead.id, type: lead.type }
