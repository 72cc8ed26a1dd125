/**
 * A person's replies (docs/contract.md §17) reach the visitor within a few seconds: while the panel is open
 * and its page is visible, the conversation is read again — every 3 s while the conversation is
 * lively (a message either way in the last 5 minutes), every 10 s within half an hour of the last
 * one, every 30 s after that — and never while the panel is closed or the tab hidden, nor at all for
 * a key without `chat:read`. Polling rather than a held connection: a visitor's page keeps no socket
 * open to Parley, and it works through every proxy and under the host page's CSP's `connect-src`. The
 * slowing down keeps the visitors of one site behind one address (an office, a school) well inside
 * the key's rate limit (§3, per key and client address).
 */
import type { ChatState } from "./chat-state.ts"

const SECOND = 1_000
const MINUTE = 60 * SECOND

/** How long to wait before the next read, `idleMs` after the conversation's last message. */
export const followDelay = (idleMs: number): number =>
  idleMs < 5 * MINUTE ? 3 * SECOND : idleMs < 30 * MINUTE ? 10 * SECOND : 30 * SECOND

export const followConversation = (chat: Pick<ChatState, "catchUp" | "items">, isOpen: () => boolean): void => {
  let lastMessageAt = Date.now()
  chat.items.subscribe(() => {
    lastMessageAt = Date.now()
  })
  const tick = async () => {
    let keepGoing = true
    if (isOpen() && document.visibilityState === "visible") keepGoing = await chat.catchUp()
    if (keepGoing) setTimeout(tick, followDelay(Date.now() - lastMessageAt))
  }
  setTimeout(tick, followDelay(0))
}
