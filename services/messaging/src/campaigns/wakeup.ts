import { Database } from "@parley/db"
import { Context, Effect, Layer } from "effect"

/** The channel a new campaign is announced on, by the transaction that creates it. */
export const CAMPAIGN_CHANNEL = "parley_messaging_campaigns"

/**
 * Wakes the campaign worker when a campaign is created: by this process directly, and through
 * LISTEN/NOTIFY for every instance (the creating transaction NOTIFYs at commit); a LISTEN that
 * reconnects wakes it too, since what was notified meanwhile is lost. So the worker needs no quick
 * poll: idle, `npm start` sent two queries a second for it.
 */
export class CampaignWakeup extends Context.Service<
  CampaignWakeup,
  { notify(): void; wait(timeoutMs: number): Promise<void> }
>()("@parley/messaging/CampaignWakeup") {
  static readonly layer = Layer.effect(
    CampaignWakeup,
    Effect.gen(function* () {
      let waiters: Array<() => void> = []
      let pending = false
      const notify = () => {
        pending = true
        const woken = waiters
        waiters = []
        for (const wake of woken) wake()
      }
      const { sql } = yield* Database
      const listening = yield* Effect.promise(() => sql.listen(CAMPAIGN_CHANNEL, notify, notify))
      yield* Effect.addFinalizer(() => Effect.promise(() => listening.unlisten()).pipe(Effect.ignore))
      return {
        notify,
        wait: (timeoutMs: number) =>
          new Promise<void>((resolve) => {
            if (pending) {
              pending = false
              resolve()
              return
            }
            const timer = setTimeout(done, timeoutMs)
            function done() {
              clearTimeout(timer)
              waiters = waiters.filter((w) => w !== done)
              pending = false
              resolve()
            }
            waiters.push(done)
          }),
      }
    }),
  )
}
