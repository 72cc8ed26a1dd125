/**
 * One call to a service over undici's dispatch API rather than `pool.request`: the hot path of
 * every forwarded request. `request` wraps each answer in a Readable stream, an AsyncResource and
 * promise plumbing even when the gateway then reads it whole; here a small answer of known length
 * is collected straight into one Buffer, and only other answers (exports, unknown length) become a
 * stream, with backpressure and abort on destroy.
 */
import { Readable } from "node:stream"
import type { Dispatcher } from "undici"

export type UpstreamHeaders = Record<string, string | Array<string> | undefined>

export interface UpstreamAnswer {
  readonly statusCode: number
  readonly headers: UpstreamHeaders
  /** The whole body (small answers of known length), or the body as it streams. */
  readonly body: Buffer | Readable
}

export const callUpstream = (
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  bufferLimit: number,
): Promise<UpstreamAnswer> =>
  new Promise((resolve, reject) => {
    let settled = false
    let ended = false
    let statusCode = 0
    let headers: UpstreamHeaders = {}
    let chunks: Array<Buffer> | undefined
    let size = 0
    let stream: Readable | undefined
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: () => {},
      onResponseStart: (controller, status, responseHeaders) => {
        if (status < 200) return
        statusCode = status
        headers = responseHeaders as UpstreamHeaders
        const length = Number(headers["content-length"])
        if (Number.isInteger(length) && length <= bufferLimit) {
          chunks = []
          return
        }
        stream = new Readable({
          read: () => controller.resume(),
          destroy: (error, callback) => {
            // The client went away (or the reply failed): stop the service's answer too.
            if (!ended) controller.abort(error ?? new Error("forwarded answer abandoned"))
            callback(error)
          },
        })
        settled = true
        resolve({ statusCode, headers, body: stream })
      },
      onResponseData: (controller, chunk) => {
        if (chunks !== undefined) {
          chunks.push(chunk)
          size += chunk.length
        } else if (stream !== undefined && !stream.push(chunk)) controller.pause()
      },
      onResponseEnd: () => {
        ended = true
        if (stream !== undefined) stream.push(null)
        else if (!settled) {
          settled = true
          resolve({ statusCode, headers, body: Buffer.concat(chunks ?? [], size) })
        }
      },
      onResponseError: (_controller, error) => {
        ended = true
        if (!settled) {
          settled = true
          reject(error)
        } else stream?.destroy(error)
      },
    }
    try {
      dispatcher.dispatch(options, handler)
    } catch (error) {
      if (!settled) {
        settled = true
        reject(error)
      }
    }
  })
