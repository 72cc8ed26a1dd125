/**
 * Runs the example receiver on Node:
 *   PARLEY_WEBHOOK_SECRET=<secret> PORT=8787 node examples/node-server.ts
 * (node:http is used here only; the receiver itself is a runtime-neutral Fetch handler.)
 */
import { createServer } from "node:http"
import { makeReceiver } from "./receiver.ts"

const secret = process.env.PARLEY_WEBHOOK_SECRET
if (secret === undefined || secret === "") {
  console.error("Set PARLEY_WEBHOOK_SECRET to the webhook's secret.")
  process.exit(1)
}
const receiver = makeReceiver({ secret })
const port = Number(process.env.PORT ?? 8787)
const host = process.env.HOST ?? "127.0.0.1"

const server = createServer(async (req, res) => {
  try {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value)
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    }
    const response = await receiver.fetch(
      new Request(`http://${host}${req.url ?? "/"}`, {
        method: req.method ?? "GET",
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? null : Buffer.concat(chunks),
      }),
    )
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  } catch (error) {
    console.error(error)
    res.writeHead(500).end()
  }
})

server.listen(port, host, () => {
  const address = server.address()
  const actual = typeof address === "object" && address !== null ? address.port : port
  console.log(`Parley webhook receiver listening on http://${host}:${actual}`)
})

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.close(() => process.exit(0)))
