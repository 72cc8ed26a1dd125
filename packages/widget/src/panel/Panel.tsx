/**
 * The open panel: a modal dialog named by its title, with the chat (or the booking form, when the key
 * may book) and a live region that says each reply to screen-reader users. Escape closes it; Tab stays
 * inside it.
 */
import type { Signal } from "@preact/signals"
import { useRef } from "preact/hooks"
import type { PanelHost } from "../shared/bridge.ts"
import { BookingConfirmation } from "./booking/BookingConfirmation.tsx"
import { BookingForm } from "./booking/BookingForm.tsx"
import type { BookingState } from "./booking/booking-state.ts"
import { Composer } from "./chat/Composer.tsx"
import { Conversation } from "./chat/Conversation.tsx"
import type { ChatState } from "./chat/chat-state.ts"
import { keepTabInside } from "./focus-trap.ts"
import { Notice } from "./Notice.tsx"
import type { PanelStrings } from "./strings.ts"

export type View = "chat" | "booking"

const CLOSE_ICON = "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"

export interface PanelProps {
  readonly host: PanelHost
  readonly chat: ChatState
  readonly booking: BookingState
  readonly view: Signal<View>
  readonly show: (view: View) => void
  readonly s: PanelStrings
}

export const Panel = ({ host, chat, booking, view, show, s }: PanelProps) => {
  const dialog = useRef<HTMLElement>(null)
  const current = view.value
  const problem = current === "chat" ? chat.problem.value : booking.problem.value
  const confirmed = booking.confirmed.value
  return (
    <section
      class="panel"
      role="dialog"
      aria-modal="true"
      aria-labelledby="parley-title"
      ref={dialog}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault()
          host.requestClose()
        } else if (dialog.current !== null) keepTabInside(event, dialog.current, host.root)
      }}
    >
      {/* A div, not <header>: that would be a second banner landmark on the host's page. */}
      <div class="header">
        <h2 id="parley-title">{host.options.title ?? (chat.welcome.value?.businessName || s.defaultTitle)}</h2>
        {booking.availability.value === "available" ? (
          <button type="button" class="switch" onClick={() => show(current === "chat" ? "booking" : "chat")}>
            {current === "chat" ? s.book : s.backToChat}
          </button>
        ) : null}
        <button type="button" class="close" aria-label={s.close} onClick={host.requestClose}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={CLOSE_ICON} />
          </svg>
        </button>
      </div>
      {problem === undefined ? null : <Notice problem={problem} s={s} />}
      {current === "chat" ? (
        <>
          <Conversation chat={chat} s={s} />
          <Composer chat={chat} s={s} />
        </>
      ) : (
        <div class="booking-view">
          {confirmed === undefined ? (
            <BookingForm booking={booking} s={s} />
          ) : (
            <BookingConfirmation
              booking={confirmed}
              phone={booking.confirmedPhone.value}
              timezone={booking.timezone.value}
              locale={host.options.locale}
              s={s}
              again={booking.again}
              backToChat={() => show("chat")}
            />
          )}
        </div>
      )}
      <div class="sr-only" aria-live="polite" aria-atomic="true">
        {chat.announcement.value}
      </div>
    </section>
  )
}
