import { Context, Effect, Layer } from "effect"

/**
 * Wakes the campaign worker when a campaign is created in this process, so a new broadcast starts
 * at once; other instances find it on their next poll.
 */
export class CampaignWakeup extends Context.Service<
  CampaignWakeup,
  { notify(): void; wait(timeoutMs: number): Promise<void> }
>()("@parley/messaging/CampaignWakeup") {
  static readonly layer = Layer.effect(
    CampaignWakeup,
    Effect.sync(() => {
      let waiters: Array<() => void> = []
      let pending = false
      return {
        notify: () => {
          pending = true
          const woken = waiters
          waiters = []
          for (const wake of woken) wake()
        },
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
