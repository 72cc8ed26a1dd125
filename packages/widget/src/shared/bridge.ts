/**
 * What the loader (`widget.js`) and the panel (loaded on first open) agree on. The loader owns what
 * must exist before the panel does — the options read from the script tag, the shadow root, the
 * launcher, `window.Parley` and its event handlers — and hands them to the panel's `mount`.
 */
import type { BookingRecord } from "@parley/contracts"

/** The options of docs/contract.md §15, read from the script tag's `data-parley-*` attributes. */
export interface WidgetOptions {
  /** `data-parley-key`: a widget key (§2.3). */
  readonly key: string
  /** `data-parley-title`: the panel's heading; when absent the business's name, else a localized "Chat with us". */
  readonly title: string | undefined
  /** `data-parley-color`: any CSS colour; the accent of the launcher, header and visitor bubbles. */
  readonly color: string | undefined
  /** `data-parley-position`: which bottom corner; the inline end of the page when absent. */
  readonly position: "right" | "left"
  /** `data-parley-open`: start open (present, or any value but "false"). */
  readonly startOpen: boolean
  /** `data-parley-locale`, else the page's `lang`, else the browser's language: `en`, `es`, `de`, `fr`, `pt`. */
  readonly locale: string
}

/** A visitor's, the assistant's or a person's (`staff`, docs/contract.md §17) message as `Parley.on("message")` hands it over. */
export interface MessageEventDetail {
  readonly role: "visitor" | "assistant" | "staff"
  readonly text: string
}

/** The lead a conversation recorded, as the chat response names it (§8). */
export interface LeadEventDetail {
  readonly id: string
  readonly type: string
}

export interface WidgetEvents {
  readonly message: MessageEventDetail
  readonly lead: LeadEventDetail
  readonly booking: BookingRecord
}

export type WidgetEventName = keyof WidgetEvents

/** Handed by the loader to the panel's `mount`. */
export interface PanelHost {
  readonly root: ShadowRoot
  readonly options: WidgetOptions
  /** The Parley the loader came from: the base of `/api/public/*`. */
  readonly parleyUrl: URL
  /** The element the panel renders into (its `id` is the launcher's `aria-controls`). */
  readonly container: HTMLElement
  readonly emit: <E extends WidgetEventName>(event: E, detail: WidgetEvents[E]) => void
  /** The panel asks to be closed (its close button, Escape). */
  readonly requestClose: () => void
  /** Remembered by the loader for this tab, so that the panel reopens after a navigation. */
  readonly rememberOpen: (open: boolean) => void
}

export interface PanelController {
  /** Shows the panel; `focus` moves the focus into it (not when it opens by itself on page load). */
  readonly open: (focus: boolean) => void
  readonly close: () => void
  /** Starts the conversation over (§8 `POST /api/public/chat/reset`). */
  readonly reset: () => Promise<void>
}

export type MountPanel = (host: PanelHost) => PanelController
