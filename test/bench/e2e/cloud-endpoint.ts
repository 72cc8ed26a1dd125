/**
 * The cloud webhook endpoint of the baselines (relay.ts, durable.ts): any GET answers 200 (their
 * health check); a POST's raw body is checked against `X-Hub-Signature-256` (HMAC-SHA256 with the
 * app secret, constant-time compare) — 401 if it fails — and handed, verified, to `accept`, which
 * answers.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type ServerResponse } from "node:http"

export const listenForCloudWebhooks = (
  port: number,
  appSecret: string,
  accept: (body: Buffer, response: ServerResponse) => void,
): void => {
  const validSignature = (header: string | string[] | undefined, body: Buffer): boolean => {
    if (typeof header !== "string" || !header.startsWith("sha256=")) return false
    const expected = createHmac("sha256", appSecret).update(body).digest()
    const given = Buffer.from(header.slice(7), "hex")
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      if (request.method === "GET") return void response.writeHead(200).end("ok")
      const body = Buffer.concat(chunks)
      if (!validSignature(request.headers["x-hub-signature-256"], body)) return void response.writeHead(401).end()
      accept(body, response)
    })
  })
  server.keepAliveTimeout = 60_000
  server.listen(port, "127.0.0.1")
}
