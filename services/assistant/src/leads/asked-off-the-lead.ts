import type { LeadInput } from "../engine/lead-capture.ts"
import type { RecordedLead } from "./record-lead.ts"

/**
 * Whether this turn asked for something (a callback, a demo, a booking) that the lead does not now
 * say, so that a person must see it: the conversation then waits for a person in the Inbox
 * (docs/contract.md §17). Nothing a returning customer asks is lost, though the lead is not theirs to
 * change from here (`notOwn`: a number typed into the widget whose lead another conversation made),
 * or already says something stronger (a BOOKING lead whose customer now asks to be called: the lead
 * and its `lead.updated` keep saying BOOKING). Only a request new in this turn counts (another
 * number, or another type than the previous turn's), so a person's answer, which clears the mark, is
 * not undone by the customer's next "thanks".
 */
export const askedOffTheLead = (
  previous: LeadInput | undefined,
  capture: LeadInput,
  recorded: RecordedLead,
): boolean => {
  if (capture.type === "GENERAL_INQUIRY") return false
  const newRequest = previous === undefined || previous.phone !== capture.phone || previous.type !== capture.type
  return newRequest && (recorded.outcome === "notOwn" || recorded.type !== capture.type)
}
