/**
 * Bus topic names (docs/internal-apis.md, "Topics"). Names carry a version suffix: a record schema
 * that changes incompatibly gets a new topic, never a silent change on the old one.
 */
export const Topics = {
  identityKeys: "parley.identity.keys.v1",
  identityKeyUsage: "parley.identity.key-usage.v1",
  identityMembers: "parley.identity.members.v1",
  registryWebhooks: "parley.registry.webhooks.v1",
  eventsMessage: "parley.events.message.v1",
  eventsLead: "parley.events.lead.v1",
  eventsTemplate: "parley.events.template.v1",
  eventsCampaign: "parley.events.campaign.v1",
  dispatchDeliveries: "parley.dispatch.deliveries.v1",
  dispatchRetry5s: "parley.dispatch.retry.5s.v1",
  dispatchRetry10s: "parley.dispatch.retry.10s.v1",
  dispatchAttempts: "parley.dispatch.attempts.v1",
  channelInbound: "parley.channel.inbound.v1",
  channelOutbound: "parley.channel.outbound.v1",
  assistantSettings: "parley.assistant.settings.v1",
} as const
export type TopicName = (typeof Topics)[keyof typeof Topics]

export interface TopicSpec {
  readonly name: TopicName
  readonly partitions: number
}

const PARTITIONS = 8

/** Every topic with its partition count, for the test broker and the Helm topic job. */
export const TopicCatalog: ReadonlyArray<TopicSpec> = Object.values(Topics).map((name) => ({
  name,
  partitions: PARTITIONS,
}))

/** The event topics, so the dispatcher can subscribe to all of them. */
export const EventTopics: ReadonlyArray<TopicName> = [
  Topics.eventsMessage,
  Topics.eventsLead,
  Topics.eventsTemplate,
  Topics.eventsCampaign,
]
