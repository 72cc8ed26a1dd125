import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sign } from "../src/index.ts"
import { sampleEnvelope } from "../src/testing.ts"

/**
 * The example receiver, launched as its README says (a Node process reading the secret from
 * PARLEY_WEBHOOK_SECRET), answering real HTTP deliveries on loopback.
 */
const secret = "example-secret-as-registered"
const launcher = fileURLToPath(new URL("../examples/node-server.ts", import.meta.url))
let child: ChildProcess
let base = ""

beforeAll(async () => {
  child = spawn(process.execPath, [launcher], {
    env: { ...process.env, PARLEY_WEBHOOK_SECRET: secret, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  })
  base = await new Promise<string>((resolve, reject) => {
    let output = ""
    const deadline = setTimeout(() => reject(new Error(`receiver did not start: ${output}`)), 15_000)
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match?.[1] !== undefined) {
        clearTimeout(deadline)
        resolve(match[1])
      }
    })
    child.on("exit", (code) => reject(new Error(`receiver exited with ${code}: ${output}`)))
  })
})

afterAll(() => {
  child?.kill("SIGTERM")
})

const deliver = async (body: string, signature: string, deliveryId = "dlv_4tQ2yK8pX1mN7bV3cZ9wL0") =>
  fetch(`${base}/hooks/parley`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-service-event": "message.inbound",
      "x-service-signature": signature,
      "x-service-delivery": deliveryId,
      "x-service-attempt": "1",
    },
    body,
  })

describe("the example receiver", () => {
  it("answers 200 to an authentic delivery, and 200 marked duplicate to its retry", async () => {
    const body = JSON.stringify(sampleEnvelope("message.inbound"))
    const signature = await sign(body, secret)
    const first = await deliver(body, signature)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ received: "message.inbound", duplicate: false })
    const retry = await deliver(body, signature)
    expect(retry.status).toBe(200)
    expect(await retry.json()).toEqual({ received: "message.inbound", duplicate: true })
  })

  it("answers 401 to a bad signature and to a missing one", async () => {
    const body = JSON.stringify(sampleEnvelope("message.inbound"))
    expect((await deliver(body, await sign(body, "not the secret"), "dlv_other")).status).toBe(401)
    const unsigned = await fetch(`${base}/hooks/parley`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    })
    expect(unsigned.status).toBe(401)
  })

  it("answers 401 when the body was re-serialised after signing", async () => {
    const body = JSON.stringify(sampleEnvelope("lead.updated"))
    const signature = await sign(body, secret)
    expect((await deliver(JSON.stringify(JSON.parse(body), null, 1), signature, "dlv_reser")).status).toBe(401)
  })
})
