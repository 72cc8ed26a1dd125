import { eventRecord, type OutgoingRecord } from "@parley/bus"
import {
  ChannelInbound,
  type EventName,
  type EventRecordOf,
  encodeBusValue,
  type OrgId,
  Topics,
} from "@parley/contracts"

/** The records this service appends to its outbox: each event on its domain's topic (see `eventRecord`). */
const eventOf =
  <E extends EventName>(event: E) =>
  (orgId: OrgId, data: EventRecordOf<E>["data"], at: Date): OutgoingRecord =>
    eventRecord(event, orgId, data, at)

export const messageInbound = eventOf("message.inbound")
export const messageStatus = eventOf("message.status")
export const templateStatus = eventOf("template.status")
export const templateQuality = eventOf("template.quality")
export const templateCategory = eventOf("template.category")
export const campaignCompleted = eventOf("campaign.completed")

/** The conversation turn handed to the assistant, which answers on `parley.channel.outbound.v1`. */
export const channelInbound = (record: ChannelInbound): OutgoingRecord => ({
  topic: Topics.channelInbound,
  key: record.orgId,
  value: encodeBusValue(ChannelInbound, record),
})
