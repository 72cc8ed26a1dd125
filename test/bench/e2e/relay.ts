/**
 * The baseline: a bare Node relay doing the least any such system must per message — take the raw
 * body, check `X-Hub-Signature-256` over it (HMAC-SHA256, constant-time compare), answer 200, then
 * POST the message's text, signed like a webhook, to the receiver over a keep-alive pool. No
 * database, no queue, no retries: what Parley's throughput is compared with.
 *
 *   node relay.ts <port> <app secret> <receiver origin>
 */
import { createHmac } from "node:crypto"
import { Pool } from "undici"
import { listenForCloudWebhooks } from "./cloud-endpoint.ts"

const [, , port = "0", secret = "", receiver = ""] = process.argv
const pool = new Pool(receiver, { connections: 32 })
const webhookKey = Buffer.from("bench relay webhook secret")

const relay = async (body: Buffer) => {
  const change = JSON.parse(body.toString("utf8")).entry?.[0]?.changes?.[0]?.value
  for (const message of change?.messages ?? []) {
    const payload = JSON.stringify({ event: "message.inbound", data: { from: message.from, text: message.text?.body } })
    const timestamp = Math.floor(Date.now() / 1000)
    const signature = createHmac("sha256", webhookKey).update(`${message.id}.${timestamp}.${payload}`).digest("base64")
    const response = await pool.request({
      method: "POST",
      path: "/hook",
      headers: {
        "content-type": "application/json",
        "webhook-id": message.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": `v1,${signature}`,
      },
      body: payload,
    })
    await response.body.dump()
  }
}

listenForCloudWebhooks(Number(port), secret, (body, response) => {
  response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}')
  relay(body).catch((error: unknown) => console.error("relay failed", error))
})
