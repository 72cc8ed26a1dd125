/**
 * The inbox's live updates: `GET /api/conversations/events`, server-sent events authenticated by the
 * session cookie like every other request (same origin). The browser's EventSource reconnects by
 * itself after a dropped connection (the server asks for 3 s); one the server refused (a session that
 * ended) is closed for good by the browser, so it is opened again here, more slowly. Whatever was
 * missed while disconnected is caught up by reading again on reconnect.
 */
import { useEffect, useRef, useState } from "preact/hooks"

export type LiveState = "connecting" | "live" | "reconnecting"

const EVENTS_URL = "/api/conversations/events"
const REOPEN_AFTER_MS = 10_000

export const useConversationEvents = (onChange: (id: string | undefined) => void): LiveState => {
  const [state, setState] = useState<LiveState>("connecting")
  const latest = useRef(onChange)
  latest.current = onChange
  useEffect(() => {
    let source: EventSource | undefined
    let reopen: ReturnType<typeof setTimeout> | undefined
    let lost = false
    const open = () => {
      source = new EventSource(EVENTS_URL)
      source.onopen = () => {
        setState("live")
        // Reconnected: read everything again, whatever changed meanwhile was not heard.
        if (lost) latest.current(undefined)
        lost = false
      }
      source.onerror = () => {
        lost = true
        setState("reconnecting")
        if (source?.readyState === EventSource.CLOSED) {
          source.close()
          reopen = setTimeout(open, REOPEN_AFTER_MS)
        }
      }
      source.addEventListener("conversation", (event) => {
        try {
          const { id } = JSON.parse((event as MessageEvent<string>).data) as { id?: unknown }
          if (typeof id === "string") latest.current(id)
        } catch {
          // Not an event this console knows: ignore it.
        }
      })
    }
    open()
    return () => {
      clearTimeout(reopen)
      source?.close()
    }
  }, [])
  return state
}
