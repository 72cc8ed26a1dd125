import type { OutgoingRecord } from "@parley/bus"
import {
  CampaignCompletedData,
  ChannelInbound,
  EventRecord,
  encodeBusValue,
  MessageInboundData,
  MessageStatusData,
  TemplateCategoryData,
  TemplateQualityData,
  TemplateStatusData,
  Topics,
} from "@parley/contracts"
import { newId } from "@parley/platform"
import { Schema } from "effect"

/**
 * The records this service appends to its outbox: each event as an `EventRecord` on its domain's
 * topic, keyed by organization, its `data` checked by the event's own schema first so that a bug
 * here fails the transaction instead of shipping a payload receivers would refuse.
 */

const eventOf =
  <S extends Schema.Top>(topic: string, event: EventRecord["event"], schema: S) =>
  (orgId: string, data: S["Type"], at: Date): OutgoingRecord => {
    Schema.decodeUnknownSync(schema as never)(data)
    return {
      topic,
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

export const messageInbound = eventOf(Topics.eventsMessage, "message.inbound", MessageInboundData)
export const messageStatus = eventOf(Topics.eventsMessage, "message.status", MessageStatusData)
export const templateStatus = eventOf(Topics.eventsTemplate, "template.status", TemplateStatusData)
export const templateQuality = eventOf(Topics.eventsTemplate, "template.quality", TemplateQualityData)
export const templateCategory = eventOf(Topics.eventsTemplate, "template.category", TemplateCategoryData)
export const campaignCompleted = eventOf(Topics.eventsCampaign, "campaign.completed", CampaignCompletedData)

/** The conversation turn handed to the assistant, which answers on `parley.channel.outbound.v1`. */
export const channelInbound = (record: ChannelInbound): OutgoingRecord => ({
  topic: Topics.channelInbound,
  key: record.orgId,
  value: encodeBusValue(ChannelInbound, record),
})
