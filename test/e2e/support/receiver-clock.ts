/**
 * Verifying a delivery as a receiver would at another time, to prove that a captured request is
 * refused later: `standardwebhooks` reads `Date.now()` synchronously, so it runs with `Date.now`
 * shifted for that one call (nothing else runs meanwhile); `@parley/webhooks` reads Effect's Clock,
 * which a `TestClock` sets.
 */
import { type HeadersLike, type VerifyOptions, verifyEffect, type WebhookEnvelope } from "@parley/webhooks"
import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import { Webhook, WebhookVerificationError } from "standardwebhooks"

/** What a verification came to: the value it answered, or the refusal's tag / message. */
export type Outcome =
  | { readonly accepted: true; readonly value: unknown }
  | { readonly accepted: false; readonly why: string }

/** `standardwebhooks` at `nowMs`: its answer, or the WebhookVerificationError it threw (anything else is thrown). */
export const standardAt = (nowMs: number, secret: string, body: string, headers: Record<string, string>): Outcome => {
  const real = Date.now
  Date.now = () => nowMs
  try {
    return { accepted: true, value: new Webhook(secret).verify(body, headers) }
  } catch (error) {
    if (error instanceof WebhookVerificationError) return { accepted: false, why: error.message }
    throw error
  } finally {
    Date.now = real
  }
}

/** `@parley/webhooks` at `nowMs`: the envelope, or the refusal's tag (an error that is no refusal is thrown). */
export const parleyAt = async (
  nowMs: number,
  secret: string,
  body: string | Uint8Array,
  headers: HeadersLike,
  options: VerifyOptions = {},
): Promise<Outcome> => {
  const exit = await Effect.runPromise(
    Effect.gen(function* () {
      yield* TestClock.setTime(nowMs)
      return yield* Effect.exit(verifyEffect(body, headers, secret, options))
    }).pipe(Effect.provide(TestClock.layer())),
  )
  if (Exit.isSuccess(exit)) return { accepted: true, value: exit.value satisfies WebhookEnvelope }
  const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (failure === undefined) throw new Error(`verify died: ${String(exit.cause)}`)
  return { accepted: false, why: (failure.error as { _tag: string })._tag }
}
