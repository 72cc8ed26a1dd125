/**
 * Run by deno.test.ts under Deno (not Node): verifies deliveries signed on Node with the library's
 * own source — one of each event — and drives the example receiver's Fetch handler. Prints one
 * JSON line of findings. Input: one JSON argument { secret, deliveries: [{ event, body, signature,
 * deliveryId }] }.
 */
import { makeReceiver } from "../../examples/receiver.ts"
import { sign, verify } from "../../src/index.ts"

declare const Deno: { args: ReadonlyArray<string>; version: { deno: string } }

interface Delivery {
  readonly event: string
  readonly body: string
  readonly signature: string
  readonly deliveryId: string
}

interface Input {
  readonly secret: string
  readonly deliveries: ReadonlyArray<Delivery>
}

const input = JSON.parse(Deno.args[0] ?? "{}") as Input
const headers = (delivery: Delivery, signature = delivery.signature) =>
  new Headers({
    "content-type": "application/json",
    "x-service-event": delivery.event,
    "x-service-signature": signature,
    "x-service-delivery": delivery.deliveryId,
    "x-service-attempt": "1",
  })

const tagOf = async (attempt: Promise<unknown>): Promise<string> =>
  attempt.then(
    () => "verified",
    (error: { _tag?: string }) => error._tag ?? String(error),
  )

const receiver = makeReceiver({ secret: input.secret, onEvent: () => {} })
const post = (delivery: Delivery, signature = delivery.signature) =>
  receiver.fetch(
    new Request("http://receiver.test/hook", {
      method: "POST",
      headers: headers(delivery, signature),
      body: delivery.body,
    }),
  )

const findings = []
for (const delivery of input.deliveries) {
  const envelope = await verify(delivery.body, headers(delivery), input.secret)
  const bytesEnvelope = await verify(new TextEncoder().encode(delivery.body), headers(delivery), input.secret)
  findings.push({
    event: envelope.event,
    timestamp: envelope.timestamp,
    data: envelope.data,
    bytesEvent: bytesEnvelope.event,
    signature: await sign(delivery.body, input.secret),
    tampered: await tagOf(verify(`${delivery.body} `, headers(delivery), input.secret)),
    wrongSecret: await tagOf(verify(delivery.body, headers(delivery), `${input.secret}x`)),
    receiverGood: (await post(delivery)).status,
    receiverRetry: await (await post(delivery)).json(),
    receiverBad: (await post(delivery, `sha256=${"0".repeat(64)}`)).status,
  })
}

console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, deliveries: findings }))
