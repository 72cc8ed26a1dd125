import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { makeReceiver } from "../examples/receiver.ts"
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
/** What the receiver wrote to stderr (its warnings). */
let warnings = ""

beforeAll(async () => {
  child = spawn(process.execPath, [launcher], {
    env: { ...process.env, PARLEY_WEBHOOK_SECRET: secret, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    warnings += chunk.toString()
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

  it("answers 401 to a request carrying no delivery at all", async () => {
    expect((await fetch(`${base}/hooks/parley`)).status).toBe(401)
  })

  it("answers 200 and logs a warning for an authentic body it cannot decode", async () => {
    const malformed = JSON.stringify({ event: "lead.created", timestamp: "yesterday", data: {} })
    const answer = await deliver(malformed, await sign(malformed, secret), "dlv_malformed")
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ ignored: "MalformedBody" })
    const notJson = "not json"
    expect((await deliver(notJson, await sign(notJson, secret), "dlv_not_json")).status).toBe(200)
    await vi.waitFor(() => {
      expect(warnings).toContain("ignoring delivery dlv_malformed: MalformedBody")
      expect(warnings).toContain("ignoring delivery dlv_not_json: MalformedBody")
    })
  })

  it("answers 200 and logs a warning for an authentic event newer than the library", async () => {
    const newer = JSON.stringify({ event: "lead.archived", timestamp: "2026-11-22T09:30:00.000Z", data: {} })
    const answer = await deliver(newer, await sign(newer, secret), "dlv_newer")
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ ignored: "UnknownEvent" })
    await vi.waitFor(() => expect(warnings).toContain("ignoring delivery dlv_newer: UnknownEvent"))
  })

  it("answers 401 when the body was re-serialised after signing", async () => {
    const body = JSON.stringify(sampleEnvelope("lead.updated"))
    const signature = await sign(body, secret)
    expect((await deliver(JSON.stringify(JSON.parse(body), null, 1), signature, "dlv_reser")).status).toBe(401)
  })
})

describe("the example receiver's handler, with a delivery still being handled", () => {
  const headersFor = (signature: string) => ({
    "content-type": "application/json",
    "x-service-event": "lead.created",
    "x-service-signature": signature,
    "x-service-delivery": "dlv_concurrent",
    "x-service-attempt": "1",
  })
  const post = (receiver: ReturnType<typeof makeReceiver>, body: string, signature: string) =>
    receiver.fetch(new Request("http://receiver.test/hook", { method: "POST", headers: headersFor(signature), body }))

  it("answers a concurrent attempt of it 200 once that handling succeeds, handling the delivery once", async () => {
    const gate = Promise.withResolvers<void>()
    let handled = 0
    const receiver = makeReceiver({
      secret,
      onEvent: async () => {
        handled++
        await gate.promise
      },
    })
    const body = JSON.stringify(sampleEnvelope("lead.created"))
    const signature = await sign(body, secret)
    const first = post(receiver, body, signature)
    await vi.waitFor(() => expect(handled).toBe(1))
    const second = post(receiver, body, signature)
    gate.resolve()
    const answers = await Promise.all([first, second])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    expect(await answers[1]?.json()).toEqual({ received: "lead.created", duplicate: true })
    expect(handled).toBe(1)
  })

  it("fails a concurrent attempt of it too when that handling throws, and handles the next attempt afresh", async () => {
    const gate = Promise.withResolvers<void>()
    let calls = 0
    const receiver = makeReceiver({
      secret,
      onEvent: async () => {
        calls++
        if (calls === 1) {
          await gate.promise
          throw new Error("database down")
        }
      },
    })
    const body = JSON.stringify(sampleEnvelope("lead.created"))
    const signature = await sign(body, secret)
    const first = post(receiver, body, signature)
    await vi.waitFor(() => expect(calls).toBe(1))
    const second = post(receiver, body, signature)
    gate.resolve()
    // Neither is acknowledged, so Parley keeps the delivery and tries again.
    await expect(first).rejects.toThrow("database down")
    await expect(second).rejects.toThrow("database down")
    const retry = await post(receiver, body, signature)
    expect(retry.status).toBe(200)
    expect(await retry.json()).toEqual({ received: "lead.created", duplicate: false })
    expect(calls).toBe(2)
  })
})
