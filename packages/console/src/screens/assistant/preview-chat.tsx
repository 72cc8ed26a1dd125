/**
 * A live preview of the organization's own assistant (docs/contract.md §14): `POST /api/assistant/preview`
 * with the signed-in session answers as the widget's conversation route does for a visitor, so it
 * needs no widget key and works whatever origins the keys allow. It is real: a phone number written
 * here records a lead.
 */
import { useRef, useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { TextField } from "../../ui/fields.tsx"
import { useAction } from "../../ui/hooks.ts"
import { ErrorNotice } from "../../ui/notice.tsx"

interface Line {
  readonly role: "visitor" | "assistant"
  readonly text: string
}

export const PreviewChat = () => {
  const [lines, setLines] = useState<Array<Line>>([])
  const [message, setMessage] = useState("")
  const [sessionId, setSessionId] = useState<string | undefined>(undefined)
  const action = useAction()
  const list = useRef<HTMLDivElement>(null)
  const send = async (event: Event) => {
    event.preventDefault()
    const text = message.trim()
    if (text === "") return
    const answer = await action.run(() =>
      unwrap(
        api.POST("/api/assistant/preview", {
          body: { message: text, ...(sessionId === undefined ? {} : { sessionId }) },
        }),
      ),
    )
    if (answer === undefined) return
    setMessage("")
    setSessionId(answer.sessionId)
    // No reply while a person holds the conversation in the Inbox (docs/contract.md §17).
    const reply = answer.reply?.text ?? "(A person holds this conversation in the Inbox: the assistant stays quiet.)"
    setLines((l) => [...l, { role: "visitor", text }, { role: "assistant", text: reply }])
    setTimeout(() => list.current?.scrollTo({ top: list.current.scrollHeight }), 0)
  }
  // A new conversation: the next message starts a new session (the last one's lead, if any, stays).
  const reset = () => {
    setLines([])
    setSessionId(undefined)
  }
  return (
    <div>
      <p class="hint">This is your live assistant: a phone number written here records a real lead.</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the transcript scrolls, so it must take the focus */}
      <div class="chat" ref={list} tabIndex={0} role="log" aria-label="Preview conversation" aria-live="polite">
        {lines.length === 0 ? (
          <p class="muted">Say hello, ask about your opening hours, or try to book.</p>
        ) : (
          <ol>
            {lines.map((line, index) => (
              <li key={index} class={`bubble bubble-${line.role}`}>
                <span class="visually-hidden">{line.role === "visitor" ? "You: " : "Assistant: "}</span>
                {line.text}
              </li>
            ))}
          </ol>
        )}
      </div>
      <ErrorNotice error={action.error} />
      <form class="row" onSubmit={send} noValidate>
        <TextField label="Your message" value={message} onValue={setMessage} autoComplete="off" />
        <div class="field actions">
          <button type="submit" class="primary" disabled={action.pending}>
            Send
          </button>
          <button type="button" class="secondary" onClick={reset} disabled={action.pending}>
            Start over
          </button>
        </div>
      </form>
    </div>
  )
}
