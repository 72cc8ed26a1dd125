/**
 * `GET /api/conversations/events`: server-sent events of one organization's conversations. Each
 * open stream costs a PassThrough and a closure; one timer (not one per stream) writes the comment
 * line that keeps proxies and the gateway's upstream pool from timing an idle stream out, and runs
 * only while a stream is open. A client that stops reading is dropped rather than buffered for.
 */
import { PassThrough } from "node:stream"
import type { OrgId } from "@parley/contracts"
import type { FastifyReply } from "fastify"
import type { ConversationFeedShape } from "./feed.ts"

/** How long the browser's EventSource waits before it reconnects. */
export const RECONNECT_MS = 3_000
/** The keep-alive comment's period: under the common 30–60 s idle timeouts of proxies. */
export const HEARTBEAT_MS = 25_000
/** Unread bytes past which a stream is dropped (its client reconnects and reads the list again). */
const MAX_UNREAD_BYTES = 64 * 1024

const open = new Set<PassThrough>()
let heartbeat: NodeJS.Timeout | undefined

const beat = () => {
  for (const stream of open) stream.write(":\n\n")
}

const track = (stream: PassThrough) => {
  open.add(stream)
  heartbeat ??= setInterval(beat, HEARTBEAT_MS).unref()
}

const untrack = (stream: PassThrough) => {
  open.delete(stream)
  if (open.size === 0 && heartbeat !== undefined) {
    clearInterval(heartbeat)
    heartbeat = undefined
  }
}

export const openEventStream = async (
  feed: ConversationFeedShape,
  orgId: OrgId,
  reply: FastifyReply,
): Promise<PassThrough> => {
  const stream = new PassThrough()
  const unsubscribe = await feed.subscribe(orgId, (id) => {
    if (stream.writableLength > MAX_UNREAD_BYTES) return void stream.destroy()
    stream.write(`event: conversation\ndata: {"id":"${id}"}\n\n`)
  })
  const close = () => {
    unsubscribe()
    untrack(stream)
    if (!stream.destroyed) stream.end()
  }
  reply.raw.once("close", close)
  stream.once("close", close)
  track(stream)
  reply
    .type("text/event-stream; charset=utf-8")
    .header("cache-control", "no-store")
    // Proxies such as nginx would otherwise hold events back in their buffers.
    .header("x-accel-buffering", "no")
  stream.write(`retry: ${RECONNECT_MS}\n: open\n\n`)
  return stream
}
