import { Schema } from "effect"
import { EventDataSchemas, type EventName } from "../events.ts"
import { EventId, OrgId } from "../ids.ts"
import { type TopicName, Topics } from "../topics.ts"
import { IsoTimestamp } from "../values.ts"

/**
 * `parley.events.<domain>.v1` (key: orgId): something happened in an organization. A union on
 * `event`, so `data` is decoded by that event's own schema — the one receivers decode.
 */
const eventRecordOf = <E extends EventName>(event: E) =>
  Schema.Struct({
    eventId: EventId,
    orgId: OrgId,
    event: Schema.Literal(event),
    timestamp: IsoTimestamp,
    data: EventDataSchemas[event],
  })

export const EventRecord = Schema.Union([
  eventRecordOf("message.inbound"),
  eventRecordOf("message.status"),
  eventRecordOf("lead.created"),
  eventRecordOf("lead.updated"),
  eventRecordOf("campaign.completed"),
  eventRecordOf("template.status"),
  eventRecordOf("template.quality"),
  eventRecordOf("template.category"),
]).annotate({ identifier: "EventRecord" })
export type EventRecord = typeof EventRecord.Type
export type EventRecordOf<E extends EventName> = Extract<EventRecord, { readonly event: E }>

/** The topic an event is published on: its domain, the part of its name before the dot. */
export const topicOfEvent = (event: EventName): TopicName => {
  switch (event) {
    case "message.inbound":
    case "message.status":
      return Topics.eventsMessage
    case "lead.created":
    case "lead.updated":
      return Topics.eventsLead
    case "campaign.completed":
      return Topics.eventsCampaign
    case "template.status":
    case "template.quality":
    case "template.category":
      return Topics.eventsTemplate
  }
}
