import { Writable } from "node:stream"
import { describe, expect, it } from "vitest"
import { makeLogger, writesAccessLog } from "./logger.ts"
import { makeServiceMetrics, metricsForService } from "./metrics.ts"

describe("makeServiceMetrics", () => {
  it("keeps each service's metrics in its own registry, labelled with the service", async () => {
    const a = makeServiceMetrics("dispatcher", { defaultMetrics: false })
    const b = makeServiceMetrics("identity", { defaultMetrics: false })
    a.counter({ name: "deliveries_total", help: "Deliveries", labelNames: ["outcome"] }).inc({ outcome: "success" }, 3)
    const text = (await a.expose()).body
    expect(text).toContain('deliveries_total{outcome="success",service="dispatcher"} 3')
    expect((await b.expose()).body).not.toContain("deliveries_total")
  })

  it("returns the existing metric when one is asked for twice", () => {
    const metrics = makeServiceMetrics("x", { defaultMetrics: false })
    const first = metrics.gauge({ name: "in_flight", help: "In flight" })
    expect(metrics.gauge({ name: "in_flight", help: "In flight" })).toBe(first)
  })

  it("records histograms and default process metrics", async () => {
    const metrics = makeServiceMetrics("y")
    metrics.histogram({ name: "attempt_seconds", help: "Attempt time", buckets: [0.1, 1] }).observe(0.5)
    const { body, contentType } = await metrics.expose()
    expect(contentType).toContain("text/plain")
    expect(body).toContain('attempt_seconds_bucket{le="1",service="y"} 1')
    expect(body).toContain("process_cpu_user_seconds_total")
  })

  it("leaves the process's metrics out of a service whose logger says so, independently of its access line", async () => {
    const destination = new Writable({ write: (_chunk, _encoding, done) => done() })
    const hosted = makeLogger({ service: "hosted", destination, processMetrics: false })
    const alone = makeLogger({ service: "alone", destination })
    expect((await metricsForService("hosted", hosted).expose()).body).not.toContain("process_cpu_user_seconds_total")
    expect((await metricsForService("alone", alone).expose()).body).toContain("process_cpu_user_seconds_total")
    expect(writesAccessLog(hosted)).toBe(true)
  })
})
