/** One autocannon run, summarised: requests/s, latency percentiles, and anything that was not a 2xx. */
import autocannon from "autocannon"

export interface LoadOptions {
  readonly url: string
  readonly headers?: Record<string, string>
  readonly connections: number
  readonly durationSeconds: number
}

export interface LoadResult {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly total: number
  readonly non2xx: number
  readonly errors: number
}

export const runLoad = async (options: LoadOptions): Promise<LoadResult> => {
  const result = await autocannon({
    url: options.url,
    headers: options.headers ?? {},
    connections: options.connections,
    duration: options.durationSeconds,
  })
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }
}
