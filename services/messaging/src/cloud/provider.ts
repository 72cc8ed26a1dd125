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

/** Channels whose opened token is kept; past it the memory starts over (a rare cost: one decryption each). */
const OpenedTokensKept = 1_000

/**
 * Opens sealed access tokens once per sealed value rather than once per call: an AES-GCM decipher
 * built per send was ~1.5 % of the message path's main thread. A rotated token is a new sealed value
 * (a fresh IV), so it is opened afresh; the old one leaves with the next clear. The plaintext stays
 * in this process's memory, where every send held it anyway, and only behind `Redacted`.
 */
export const tokenOpener = (box: SecretBox): ((sealed: string) => Redacted.Redacted<string>) => {
  const opened = new Map<string, Redacted.Redacted<string>>()
  return (sealed) => {
    let token = opened.get(sealed)
    if (token === undefined) {
      token = Redacted.make(box.open(sealed))
      if (opened.size >= OpenedTokensKept) opened.clear()
      opened.set(sealed, token)
    }
    return token
  }
}

/** The Graph API adapter for a real channel: its sealed token opened by `openToken` for each call. */
export const graphProvider = (
  graph: GraphClient,
  openToken: (sealed: string) => Redacted.Redacted<string>,
  channel: StoredChannel,
): CloudProvider => {
  const token = () => openToken(channel.access_token_sealed ?? "")
  return {
    sendMessage: (message) => graph.sendMessage(channel.phone_number_id ?? "", token(), message),
    submitTemplate: (template) => graph.submitTemplate(channel.business_account_id ?? "", token(), template),
  }
}
