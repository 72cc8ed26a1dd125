import { Bus } from "@parley/bus"
import { Topics } from "@parley/contracts"
import { startHttpServer } from "@parley/platform/testing"
import { Effect } from "effect"
import { it } from "vitest"
import { leadCreated, makeHarness, makeWebhook, newOrg } from "./harness.ts"

it("profile", async () => {
  const harness = await makeHarness("single-node")
  const receiver = await startHttpServer(() => ({ status: 204 }))
  const org = newOrg()
  for (let i = 0; i < 4; i++) await harness.putWebhook(makeWebhook(org, `${receiver.url}/p`))
  // raw publish rate to one partition, concurrency 32
  let t = Date.now()
  await harness.run(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* Effect.forEach(
        Array.from({ length: 2000 }, (_, i) => i),
        (i) => bus.publish([{ topic: Topics.dispatchAttempts, key: `k${i % 4}`, value: "x" }]),
        { concurrency: 32 },
      )
    }),
  )
  console.log("publish 2000 singles to 4 keys, conc 32:", Date.now() - t, "ms")
  await harness.publishEvents(Array.from({ length: 2000 }, () => leadCreated(org)))
  t = Date.now()
  const d = await harness.startDispatcher()
  const marks: Array<number> = []
  while (receiver.requests.length < 8000) {
    await new Promise((r) => setTimeout(r, 500))
    marks.push(receiver.requests.length)
    if (Date.now() - t > 120_000) break
  }
  console.log("8000 deliveries:", Date.now() - t, "ms", marks.join(","))
  await d.stop()
  await receiver.close()
  await harness.close()
}, 300_000)
