/**
 * Run by deno.test.ts under Deno (not Node): verifies deliveries signed on Node with the library's
 * own source, and drives the example receiver's Fetch handler. Prints one JSON line of findings.
 * Input: one JSON argument { secret, body, signature, deliveryId }.
 */
import { makeReceiver } from "../../examples/receiver.ts"
import { sign, verify } from "../../src/index.ts"

declare const Deno: { args: ReadonlyArray<string>; version: { deno: string } }

interface Input {
  readonly secret: string
  readonly body: string
  readonly signature: string
  readonly deliveryId: string
}

const input = JSON.parse(Deno.args[0] ?? "{}") as Input
const headers = (signature: string) =>
  new Headers({
    "content-type": "application/json",
    "x-service-event": "lead.updated",
    "x-service-signature": signature,
    "x-service-delivery": input.deliveryId,
    "x-service-attempt": "1",
  })

const tagOf = async (attempt: Promise<unknown>): Promise<string> =>
  attempt.then(
    () => "verified",
    (error: { _tag?: string }) => error._tag ?? String(error),
  )

const envelope = await verify(input.body, headers(input.signature), input.secret)
const bytesEnvelope = await verify(new TextEncoder().encode(input.body), headers(input.signature), input.secret)
const receiver = makeReceiver({ secret: input.secret, onEvent: () => {} })
const post = (signature: string) =>
  receiver.fetch(
    new Request("http://receiver.test/hook", { method: "POST", headers: headers(signature), body: input.body }),
  )

console.log(
  JSON.stringify({
    runtime: `deno ${Deno.version.deno}`,
    event: envelope.event,
    data: envelope.data,
    bytesEvent: bytesEnvelope.event,
    signature: await sign(input.body, input.secret),
    tampered: await tagOf(verify(`${input.body} `, headers(input.signature), input.secret)),
    wrongSecret: await tagOf(verify(input.body, headers(input.signature), `${input.secret}x`)),
    receiverGood: (await post(input.signature)).status,
    receiverRetry: await (await post(input.signature)).json(),
    receiverBad: (await post(`sha256=${"0".repeat(64)}`)).status,
  }),
)
