import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/** A keep-alive loopback receiver that answers 204 at once and notes when each delivery arrived. */
export interface BenchReceiver {
  readonly url: string
  /** `X-Service-Delivery` → arrival time (performance.timeOrigin-based ms), first arrival only. */
  readonly arrivals: Map<string, number>
  /** Raw body and headers of a few deliveries, to check signatures after the run. */
  readonly samples: Array<{ body: Buffer; headers: Record<string, string | string[] | undefined> }>
  /** Called once, when the first delivery arrives. */
  onFirstArrival: () => void
  close(): Promise<void>
}

export const startReceiver = async (): Promise<BenchReceiver> => {
  const arrivals = new Map<string, number>()
  const samples: BenchReceiver["samples"] = []
  const server: Server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const id = String(request.headers["x-service-delivery"])
      if (arrivals.size === 0) receiver.onFirstArrival()
      if (!arrivals.has(id)) arrivals.set(id, Date.now())
      if (samples.length < 20) samples.push({ body: Buffer.concat(chunks), headers: request.headers })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const receiver: BenchReceiver = {
    onFirstArrival: () => {},
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    samples,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return receiver
}
