import type { SecretBox } from "@parley/platform"
import { type Effect, Redacted } from "effect"
import type { StoredChannel } from "../channels/repository.ts"
import type { GraphClient, GraphMessage, ProviderOutcome, TemplateAnswer } from "./graph-client.ts"

/**
 * The port to the messaging provider of one cloud channel: what sending and template submission
 * need, whoever plays the provider. Two adapters: the Graph API client (a real account) and the
 * sandbox (`../sandbox/provider.ts`, docs/contract.md §16), in which Parley plays the provider itself.
 * Nothing above this port knows which one a channel has.
 */
export interface CloudProvider {
  /**
   * Sends one message; `clientRef` is Parley's own id of it. A provider that deduplicates by a
   * client reference (the sandbox does) accepts a resumed send of the same message once.
   */
  readonly sendMessage: (message: GraphMessage, clientRef: string) => Effect.Effect<ProviderOutcome<string>>
  readonly submitTemplate: (template: {
    name: string
    language: string
    category: string
    components: ReadonlyArray<unknown>
  }) => Effect.Effect<ProviderOutcome<TemplateAnswer>>
}

/** The Graph API adapter for a real channel: its sealed token opened for each call. */
export const graphProvider = (graph: GraphClient, box: SecretBox, channel: StoredChannel): CloudProvider => {
  const token = () => Redacted.make(box.open(channel.access_token_sealed ?? ""))
  return {
    sendMessage: (message) => graph.sendMessage(channel.phone_number_id ?? "", token(), message),
    submitTemplate: (template) => graph.submitTemplate(channel.business_account_id ?? "", token(), template),
  }
}
