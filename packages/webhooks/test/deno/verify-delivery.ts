/**
 * Run by deno.test.ts under Deno (not Node): verifies deliveries signed on Node with the library's
 * own source — one of each event — and drives the example receiver's Fetch handler. Prints one
 * JSON line of findings. Input: one JSON argument { secret, deliveries: [{ event, body, signature,
 * deliveryId, standard: { timestamp, signature }, stale: { timestamp, signature } }] } — `standard`
 * and `stale` are Standard Webhooks signatures made on Node now and ten minutes ago.
 */
import { makeReceiver } from "../../examples/receiver.ts"
import { sign, standardSignature, verify } from "../../src/index.ts"

declare const Deno: { args: ReadonlyArray<string>; version: { deno: string } }

interface Delivery {
  readonly event: string
  readonly body: string
  readonly signature: string
  readonly deliveryId: string
  readonly standard: { readonly timestamp: number; readonly signature: string }
  readonly stale: { readonly timestamp: number; readonly signature: string }
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

/** The Standard Webhooks headers alone, as a receiver using only those would see them. */
const standardHeaders = (delivery: Delivery, signed: Delivery["standard"]) =>
  new Headers({
    "webhook-id": delivery.deliveryId,
    "webhook-timestamp": String(signed.timestamp),
    "webhook-signature": signed.signature,
  })
const whsec = `whsec_${input.secret}`

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
    standardSignature: await standardSignature(
      delivery.body,
      { id: delivery.deliveryId, timestamp: delivery.standard.timestamp },
      whsec,
    ),
    standardWhsec: await tagOf(verify(delivery.body, standardHeaders(delivery, delivery.standard), whsec)),
    standardRegistered: await tagOf(verify(delivery.body, standardHeaders(delivery, delivery.standard), input.secret)),
    standardTampered: await tagOf(verify(`${delivery.body} `, standardHeaders(delivery, delivery.standard), whsec)),
    standardStale: await tagOf(verify(delivery.body, standardHeaders(delivery, delivery.stale), whsec)),
  })
}

console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, deliveries: findings }))
