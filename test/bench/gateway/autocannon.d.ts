// The part of autocannon's API this benchmark uses (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    readonly average: number
    readonly p50: number
    readonly p99: number
    readonly total: number
  }
  interface Result {
    readonly requests: Histogram
    readonly latency: Histogram
    readonly non2xx: number
    readonly errors: number
    readonly timeouts: number
  }
  interface Options {
    readonly url: string
    readonly headers?: Record<string, string>
    readonly connections?: number
    readonly duration?: number
  }
  export default function autocannon(options: Options): Promise<Result>
}
