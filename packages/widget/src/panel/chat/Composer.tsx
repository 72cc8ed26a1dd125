/**
 * Where the visitor writes: Enter sends, Shift+Enter starts a new line, and an input method's
 * composition (Japanese, Chinese…) is never cut short by its confirming Enter. The draft is kept in
 * `localStorage` as it is typed. A message has 2,000 characters at most (docs/contract.md §8): a
 * longer paste is cut by the field, and the visitor is told so rather than finding it out later.
 */
import type { PanelStrings } from "../strings.ts"
import type { ChatState } from "./chat-state.ts"

const SEND_ICON = "M3 20.5 21 12 3 3.5 3 10l12 2-12 2z"
const MAX_LENGTH = 2000

export const Composer = ({ chat, s }: { chat: ChatState; s: PanelStrings }) => {
  const submit = () => chat.send(chat.draft.value)
  const full = chat.draft.value.length >= MAX_LENGTH
  return (
    <>
      <p class="composer-limit" role="status">
        {full ? s.tooLong : ""}
      </p>
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
          maxLength={MAX_LENGTH}
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
    </>
  )
}
