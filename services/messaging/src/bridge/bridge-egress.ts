import { EgressClient, type Resolver } from "@parley/egress"
import { Context, Effect, Layer } from "effect"

/**
 * The SSRF-safe client the bridge channel's posts go through, and whether a bridge's URL may be a
 * loopback or private address (PARLEY_WEBHOOK_ALLOW_PRIVATE: development, tests).
 */
export class BridgeEgress extends Context.Service<
  BridgeEgress,
  { readonly client: EgressClient; readonly allowPrivateUrls: boolean }
>()("@parley/messaging/BridgeEgress") {
  /** The client lives as long as the Layer's scope. */
  static readonly layer = (options: { readonly allowPrivateUrls: boolean; readonly resolver?: Resolver | undefined }) =>
    Layer.effect(
      BridgeEgress,
      Effect.gen(function* () {
        const client = yield* Effect.acquireRelease(
          Effect.sync(() =>
            EgressClient.make({
              allowPrivate: options.allowPrivateUrls,
              timeoutMs: 10_000,
              ...(options.resolver === undefined ? {} : { lookup: options.resolver }),
            }),
          ),
          (client) => Effect.promise(() => client.close()),
        )
        return BridgeEgress.of({ client, allowPrivateUrls: options.allowPrivateUrls })
      }),
    )
}
