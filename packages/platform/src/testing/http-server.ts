/**
 * A real HTTP server on loopback that plays an outside party (a webhook receiver, a messaging
 * provider, a language model): it records every request with its exact body bytes and answers
 * with whatever the test's handler says.
 */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

export interface ReceivedRequest {
  readonly method: string
  /** Path and query as received. */
  readonly url: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
  readonly receivedAt: number
  text(): string
  json(): unknown
}

export interface StubResponse {
  readonly status?: number
  readonly headers?: Record<string, string>
  readonly body?: string | Uint8Array | object
}

/** Returns the answer; `undefined` → 200 with an empty body. A never-settling promise plays a hung peer. */
export type StubHandler = (request: ReceivedRequest) => StubResponse | undefined | Promise<StubResponse | undefined>

export interface StubServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string
  readonly port: number
  /** Every request received so far, in arrival order. */
  readonly requests: ReadonlyArray<ReceivedRequest>
  /** Swaps the handler (e.g. from failing to succeeding mid-test). */
  setHandler(handler: StubHandler): void
  /** Stops listening and destroys open connections, hung ones included. */
  close(): Promise<void>
}

export const startHttpServer = async (initial: StubHandler = () => undefined): Promise<StubServer> => {
  let handler = initial
  const requests: Array<ReceivedRequest> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      const url = req.url ?? "/"
      const received: ReceivedRequest = {
        method: req.method ?? "GET",
        url,
        path: new URL(url, "http://stub").pathname,
        headers: req.headers,
        body,
        receivedAt: Date.now(),
        text: () => body.toString("utf8"),
        json: () => JSON.parse(body.toString("utf8")),
      }
      requests.push(received)
      Promise.resolve()
        .then(() => handler(received))
        .then(
          (answer) => {
            const payload = answer?.body
            const isJson = payload !== undefined && typeof payload === "object" && !(payload instanceof Uint8Array)
            const bytes = isJson ? JSON.stringify(payload) : (payload ?? "")
            res.writeHead(answer?.status ?? 200, {
              ...(isJson ? { "content-type": "application/json" } : {}),
              ...answer?.headers,
            })
            res.end(bytes)
          },
          (error: unknown) => {
            res.writeHead(500, { "content-type": "text/plain" })
            res.end(String(error))
          },
        )
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setHandler: (next) => {
      handler = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
