/**
 * The chat panel, loaded by `widget.js` on first open (`import()` of this module) and mounted into the
 * widget's shadow root: its stylesheet is adopted there, its state lives in signals, and Preact draws
 * it. Everything it shows from Parley or the visitor is text, never HTML.
 */
import { signal } from "@preact/signals"
import { render } from "preact"
import type { MountPanel } from "../shared/bridge.ts"
import { languageOf } from "../shared/language.ts"
import { makePublicApi } from "./api/public-api.ts"
import { makeBookingState } from "./booking/booking-state.ts"
import { makeChatState } from "./chat/chat-state.ts"
import { followConversation } from "./chat/follow.ts"
import { Panel, type View } from "./Panel.tsx"
import css from "./panel.css?inline"
import { PANEL_STRINGS } from "./strings.ts"

export const mount: MountPanel = (host) => {
  const s = PANEL_STRINGS[languageOf(host.options.locale)]
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(css)
  host.root.adoptedStyleSheets = [...host.root.adoptedStyleSheets, sheet]

  const api = makePublicApi(host.parleyUrl, host.options.key)
  const chat = makeChatState(api, host, s.held)
  const booking = makeBookingState(api, host)
  const view = signal<View>("chat")

  const focusView = () => {
    const target =
      view.value === "chat"
        ? host.root.getElementById("parley-message")
        : (host.root.querySelector<HTMLElement>(".confirmation .form-title") ??
          host.root.getElementById("parley-booking-title"))
    target?.focus()
  }
  const show = (next: View) => {
    view.value = next
    // Signals redraw on the next microtask; the new view's first control exists after it.
    queueMicrotask(() => requestAnimationFrame(focusView))
  }

  render(<Panel host={host} chat={chat} booking={booking} view={view} show={show} s={s} />, host.container)
  window.addEventListener("online", chat.online)
  void chat.loadHistory()
  void chat.loadWelcome()
  followConversation(chat, () => !host.container.hidden)

  return {
    open: (focus) => {
      host.container.hidden = false
      void booking.discover()
      if (focus) focusView()
    },
    close: () => {
      host.container.hidden = true
    },
    reset: async () => {
      booking.confirmed.value = undefined
      view.value = "chat"
      await chat.reset()
    },
  }
}
