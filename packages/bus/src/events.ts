import { type EventName, EventRecord, type EventRecordOf, encodeBusValue, topicOfEvent } from "@parley/contracts"
import { newId } from "@parley/platform"
import type { OutgoingRecord } from "./Bus.ts"

/**
 * An event as the record that carries it: an `EventRecord` on its domain's topic
 * (`parley.events.<domain>.v1`), keyed by organization so one organization's events keep their
 * order. Encoding checks `data` against the event's own schema — the one receivers decode — so a bug
 * fails the producer's transaction instead of shipping a payload receivers would refuse.
 */
export const eventRecord = <E extends EventName>(
  event: E,
  orgId: string,
  data: EventRecordOf<E>["data"],
  at: Date,
  eventId: string = newId("evt"),
): OutgoingRecord => ({
  topic: topicOfEvent(event),
  key: orgId,
  value: encodeBusValue(EventRecord, { eventId, orgId, event, timestamp: at.toISOString(), data } as EventRecord),
})
