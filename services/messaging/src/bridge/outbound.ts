import { deliverySignature } from "@parley/platform"
import { Effect } from "effect"
import type { ProviderOutcome } from "../cloud/graph-client.ts"
import { BridgeEgress } from "./bridge-egress.ts"

export const BRIDGE_USER_AGENT = "Parley-Bridge/0.1.0"

/**
 * Posts one text to the bridge, signed exactly like a webhook delivery (docs/contract.md §6) with the
 * channel's `inboundToken` as the key: the one secret the bridge operator already holds, so the
 * bridge verifies Parley with the same string Parley verifies it with. `X-Service-Delivery` is the
 * message id, stable across any resend, so the bridge can deduplicate.
 */
export const postToBridge = (
  outboundUrl: string,
  signingKey: string,
  message: { readonly to: string; readonly text: string; readonly messageId: string },
): Effect.Effect<ProviderOutcome<string>, never, BridgeEgress> =>
  Effect.gen(function* () {
    const { client: egress } = yield* BridgeEgress
    const body = JSON.stringify({ to: message.to, type: "text", text: message.text, messageId: message.messageId })
    const result = yield* Effect.promise(() =>
      egress.send({
        url: outboundUrl,
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": BRIDGE_USER_AGENT,
          "x-service-event": "message.outbound",
          "x-service-signature": deliverySignature(body, signingKey),
          "x-service-delivery": message.messageId,
          "x-service-attempt": "1",
        },
        body,
      }),
    )
    if (result.ok) return { _tag: "Accepted", value: message.messageId } as const
    const detail = `bridge answered ${result.status ?? result.error ?? "nothing"}`
    if (result.status === 429) return { _tag: "RateLimited", detail } as const
    // A redirect is never followed, and a non-public address is refused at every connect: neither
    // gets better by retrying, so both are the tenant's to fix (PUT a new outboundUrl).
    const permanent = result.error === "blocked address" || result.error === "redirect"
    if (permanent || (result.status !== null && result.status >= 400 && result.status < 500)) {
      return { _tag: "Rejected", status: result.status ?? 400, detail } as const
    }
    return { _tag: "Unavailable", detail } as const
  })
