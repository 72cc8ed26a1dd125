import type { EventName } from "./events.ts"

/** Where an event can come from, as the specification's catalogue words it. */
export type EventChannels = "both channels" | "cloud channel only"

export interface EventCatalogueEntry {
  readonly name: EventName
  readonly description: string
  readonly channels: EventChannels
}

/**
 * The event catalogue that `GET /api/org/webhook-events` answers and that a webhook created without
 * `events` subscribes to. Descriptions are the specification's "fires when" texts.
 */
export const EventCatalogue: ReadonlyArray<EventCatalogueEntry> = [
  { name: "message.inbound", description: "A customer sent a message", channels: "both channels" },
  {
    name: "message.status",
    description: "A sent message moved to sent, delivered, read or failed",
    channels: "both channels",
  },
  {
    name: "lead.created",
    description: "The assistant captured a new lead from a conversation",
    channels: "both channels",
  },
  {
    name: "lead.updated",
    description: "A person already recorded as a lead came back with more detail",
    channels: "both channels",
  },
  {
    name: "campaign.completed",
    description: "Every recipient of a broadcast has been attempted",
    channels: "both channels",
  },
  {
    name: "template.status",
    description: "The template provider approved, rejected, paused or disabled a template",
    channels: "cloud channel only",
  },
  {
    name: "template.quality",
    description: "The template provider re-scored a template's quality",
    channels: "cloud channel only",
  },
  {
    name: "template.category",
    description: "The template provider moved a template between categories",
    channels: "cloud channel only",
  },
]
