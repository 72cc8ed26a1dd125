/**
 * Where the visitor writes: Enter sends, Shift+Enter starts a new line, and an input method's
 * composition (Japanese, Chinese…) is never cut short by its confirming Enter. The draft is kept in
 * `localStorage` as it is typed.
 */
import type { PanelStrings } from "../strings.ts"
import type { ChatState } from "./chat-state.ts"

const SEND_ICON = "M3 20.5 21 12 3 3.5 3 10l12 2-12 2z"

export const Composer = ({ chat, s }: { chat: ChatState; s: PanelStrings }) => {
  const submit = () => chat.send(chat.draft.value)
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <label for="parley-message" class="sr-only">
        {s.message}
      </label>
      <textarea
        id="parley-message"
        rows={1}
        maxLength={2000}
        placeholder={s.placeholder}
        value={chat.draft.value}
        dir="auto"
        onInput={(event) => chat.setDraft(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
            event.preventDefault()
            submit()
          }
        }}
      />
      <button type="submit" class="send" aria-label={s.send}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d={SEND_ICON} />
        </svg>
      </button>
    </form>
  )
}
