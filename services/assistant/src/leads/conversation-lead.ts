import type { OutboxWriter } from "@parley/bus"
import type { OrgId } from "@parley/contracts"
import { Effect } from "effect"
import type postgres from "postgres"
import { type LeadSource, leadOfConversation } from "../engine/lead-capture.ts"
import type { ConversationState } from "../engine/state.ts"
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
 * conversation did to the mistaken one (docs/contract.md §8), the conversation's lead is recorded, and
 * the state to store remembers which leads this conversation created or changed. Used by the
 * assistant's turn and by a message a person's conversation receives (§17), which capture alike.
 */
export const recordConversationLead = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  previous: ConversationState | undefined,
  next: ConversationState,
  source: LeadSource,
): Effect.Effect<{ readonly recorded: RecordedLead | null; readonly state: ConversationState }, never, OutboxWriter> =>
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
    if (recorded !== null && capture !== undefined && made[capture.phone] === undefined) {
      made[capture.phone] = {
        created: recorded.outcome === "created",
        ...(recorded.before === undefined ? {} : { before: recorded.before }),
      }
    }
    const { leads: _previousLeads, ...rest } = next
    return { recorded, state: Object.keys(made).length === 0 ? rest : { ...rest, leads: made } }
  })
