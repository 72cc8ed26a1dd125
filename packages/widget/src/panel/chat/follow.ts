/**
 * A person's replies (CONTRACT.md §17) reach the visitor within a few seconds: while the panel is open
 * and its page is visible, the conversation is read again every few seconds (one small GET of the
 * public surface; nothing while the panel is closed or the tab hidden, and not at all for a key
 * without `chat:read`). Polling rather than a held connection: a visitor's page keeps no socket open
 * to Parley, and it works through every proxy and under the host page's CSP's `connect-src`.
 */
import type { ChatState } from "./chat-state.ts"

export const FOLLOW_EVERY_MS = 3_000

export const followConversation = (chat: Pick<ChatState, "catchUp">, isOpen: () => boolean): void => {
  const tick = async () => {
    let keepGoing = true
    if (isOpen() && document.visibilityState === "visible") keepGoing = await chat.catchUp()
    if (keepGoing) setTimeout(tick, FOLLOW_EVERY_MS)
  }
  setTimeout(tick, FOLLOW_EVERY_MS)
}
