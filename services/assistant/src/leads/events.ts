import type { OutgoingRecord } from "@parley/bus"
import { EventRecord, encodeBusValue, LeadCreatedData, Topics } from "@parley/contracts"
import { newId } from "@parley/platform"
import { Schema } from "effect"

/**
 * `lead.created` / `lead.updated` as `EventRecord`s on `parley.events.lead.v1`, keyed by
 * organization. `data` is checked by the event's schema first, so a bug fails the transaction
 * rather than shipping a payload receivers would refuse.
 */
export const leadEvent = (
  orgId: string,
  event: "lead.created" | "lead.updated",
  data: LeadCreatedData,
  at: Date,
): OutgoingRecord => {
  Schema.decodeUnknownSync(LeadCreatedData)(data)
  return {
    topic: Topics.eventsLead,
    key: orgId,
    value: encodeBusValue(EventRecord, {
      eventId: newId("evt"),
      orgId,
      event,
      timestamp: at.toISOString(),
      data,
    } as EventRecord),
  }
}
