import { Database, type Wakeup } from "@parley/db"
import { Context, Effect, Layer } from "effect"
import type { StoredChannel } from "../channels/repository.ts"
import { TokenBox } from "../channels/token-box.ts"
import { makeSandboxProvider } from "../sandbox/provider.ts"
import { type GraphClient, makeGraphClient } from "./graph-client.ts"
import { type CloudProvider, graphProvider, tokenOpener } from "./provider.ts"

/**
 * The messaging provider's side of cloud channels: the Graph API client (connecting a channel asks
 * it whether the token can read the number), and the port each cloud channel's sends and template
 * submissions go through — the Graph API, or the sandbox (docs/contract.md §16).
 */
export class CloudProviders extends Context.Service<
  CloudProviders,
  {
    readonly graph: GraphClient
    readonly of: (channel: StoredChannel) => CloudProvider
  }
>()("@parley/messaging/CloudProviders") {
  /** `sandboxReports` is woken by each message the sandbox accepts (its status reporter waits on it). */
  static readonly layer = (options: {
    readonly baseUrl: string
    readonly version: string
    readonly sandboxReports: Wakeup
  }) =>
    Layer.effect(
      CloudProviders,
      Effect.gen(function* () {
        const { sql } = yield* Database
        const openToken = tokenOpener(yield* TokenBox)
        const graph = makeGraphClient({ baseUrl: options.baseUrl, version: options.version })
        const sandbox = makeSandboxProvider(sql, options.sandboxReports)
        return CloudProviders.of({
          graph,
          of: (channel) => (channel.sandbox ? sandbox(channel) : graphProvider(graph, openToken, channel)),
        })
      }),
    )
}
