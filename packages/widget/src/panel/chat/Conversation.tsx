/**
 * The messages, oldest first, each as text (never HTML), with the typing indicator while the
 * assistant replies. Each message's direction is its own (`dir="auto"`), so a reply in Arabic reads
 * right to left on an English page and the other way round.
 */
import { useEffect, useRef } from "preact/hooks"
import type { PanelStrings } from "../strings.ts"
import type { ChatState } from "./chat-state.ts"

export const Conversation = ({ chat, s }: { chat: ChatState; s: PanelStrings }) => {
  const scroller = useRef<HTMLDivElement>(null)
  const items = chat.items.value
  const replying = chat.replying.value
  // The business's greeting opens an empty conversation (docs/contract.md §15, issue #23).
  const greeting = chat.welcome.value?.greeting
  useEffect(() => {
    const box = scroller.current
    if (box !== null) box.scrollTop = box.scrollHeight
  }, [items.length, replying])

  return (
    <div class="messages" ref={scroller}>
      {chat.loadingHistory.value ? <p class="quiet">{s.loadingHistory}</p> : null}
      {items.length === 0 && !chat.loadingHistory.value && greeting === undefined ? (
        <p class="quiet">{s.empty}</p>
      ) : null}
      <ol class="log" aria-label={s.conversation}>
        {!chat.loadingHistory.value && greeting !== undefined ? (
          <li class="message assistant sent greeting">
            <span class="sr-only">{s.assistant}: </span>
            <span class="bubble" dir="auto">
              {greeting}
            </span>
          </li>
        ) : null}
        {items.map((item) =>
          item.role === "held" ? (
            <li key={item.id} class="note">
              {item.text}
            </li>
          ) : (
            <li key={item.id} class={`message ${item.role} ${item.state}`}>
              {item.role === "staff" ? (
                <span class="author">{s.staff}</span>
              ) : (
                <span class="sr-only">{item.role === "visitor" ? s.you : s.assistant}: </span>
              )}
              <span class="bubble" dir="auto">
                {item.text}
              </span>
              {item.state === "failed" ? <span class="state">{s.notSent}</span> : null}
              {item.state === "pending" ? <span class="sr-only">{s.sending}</span> : null}
            </li>
          ),
        )}
        {replying ? (
          <li class="message assistant typing">
            <span class="sr-only">{s.typing}</span>
            <span class="bubble dots" aria-hidden="true">
              <i />
              <i />
              <i />
            </span>
          </li>
        ) : null}
      </ol>
    </div>
  )
}
