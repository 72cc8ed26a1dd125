/**
 * `widget.js`, the one script a page embeds (docs/contract.md §15):
 *
 *   <script src="https://<parley>/widget.js" data-parley-key="<widget key>" async></script>
 *
 * It draws the launcher inside an open shadow root, defines `window.Parley`, and loads the panel's
 * code (`import()` of a content-hashed module from the same Parley) on first open. No framework:
 * everything here runs on every page view of every site, so it stays a few kilobytes.
 */
import type { MountPanel, PanelController, PanelHost, WidgetEventName, WidgetEvents } from "../shared/bridge.ts"
import { languageOf } from "../shared/language.ts"
import { storedValue } from "../shared/visitor-memory.ts"
import { themeCss } from "./accent.ts"
import css from "./loader.css?inline"
import { readOptions } from "./options.ts"
import { LAUNCHER_STRINGS } from "./strings.ts"

/** The panel's hashed file, relative to this script (written in by the build: vite.config.ts). */
declare const __PARLEY_PANEL_FILE__: string

type Handler<E extends WidgetEventName> = (detail: WidgetEvents[E]) => void

/** The public script API (§15). */
export interface ParleyApi {
  readonly open: () => Promise<void>
  readonly close: () => void
  readonly reset: () => Promise<void>
  /** Returns a function that removes the handler. */
  readonly on: <E extends WidgetEventName>(event: E, handler: Handler<E>) => () => void
}

declare global {
  interface Window {
    Parley?: ParleyApi
  }
}

const SVG = "http://www.w3.org/2000/svg"
const CHAT_ICON = "M5 3h14a3 3 0 0 1 3 3v9a3 3 0 0 1-3 3H10l-5 4v-4a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3z"
const CLOSE_ICON = "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"

const sheetOf = (text: string): CSSStyleSheet => {
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(text)
  return sheet
}

const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string>> = {},
): HTMLElementTagNameMap[K] => {
  const created = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value)
  return created
}

const install = (script: HTMLScriptElement): void => {
  if (window.Parley !== undefined) {
    console.warn("Parley widget: widget.js is included twice on this page; the second copy does nothing.")
    return
  }
  const direction = getComputedStyle(document.body).direction === "rtl" ? "rtl" : "ltr"
  const options = readOptions(script.dataset, {
    pageLanguage: document.documentElement.lang,
    direction,
    browserLanguage: navigator.language,
  })
  if (options.key === "") {
    console.error("Parley widget: the script tag needs a data-parley-key attribute with a widget key.")
    return
  }
  const strings = LAUNCHER_STRINGS[languageOf(options.locale)]
  const wasOpen = storedValue("sessionStorage", options.key, "open")

  const hostElement = document.createElement("parley-widget")
  const root = hostElement.attachShadow({ mode: "open" })
  root.adoptedStyleSheets = [sheetOf(css), sheetOf(themeCss(options.color))]

  // The page's writing direction, as an attribute: the panel mirrors with it (logical CSS properties,
  // `[dir=rtl]` for the few icons that point somewhere).
  const frame = element("div", {
    class: "parley",
    "data-position": options.position,
    lang: languageOf(options.locale),
    dir: direction,
  })
  const container = element("div", { id: "parley-panel", class: "panel-slot", hidden: "" })
  const failed = element("p", { class: "load-failed", role: "alert", hidden: "" })
  failed.textContent = strings.loadFailed
  const launcher = element("button", {
    type: "button",
    class: "launcher",
    "aria-expanded": "false",
    "aria-controls": "parley-panel",
    "aria-label": strings.open,
  })
  const icon = document.createElementNS(SVG, "svg")
  icon.setAttribute("viewBox", "0 0 24 24")
  icon.setAttribute("aria-hidden", "true")
  icon.setAttribute("focusable", "false")
  const path = document.createElementNS(SVG, "path")
  path.setAttribute("d", CHAT_ICON)
  icon.append(path)
  launcher.append(icon)
  frame.append(container, failed, launcher)
  root.append(frame)

  const handlers: { [E in WidgetEventName]: Set<Handler<E>> } = {
    message: new Set(),
    lead: new Set(),
    booking: new Set(),
  }
  // A page's handler that throws is reported like any uncaught error, and does not stop the widget.
  const emit: PanelHost["emit"] = (event, detail) => {
    for (const handler of handlers[event]) {
      try {
        ;(handler as Handler<typeof event>)(detail)
      } catch (error) {
        reportError(error)
      }
    }
  }

  let isOpen = false
  let controller: PanelController | undefined
  let loading: Promise<PanelController> | undefined
  let attempts = 0

  const showState = (): void => {
    launcher.setAttribute("aria-expanded", String(isOpen))
    launcher.setAttribute("aria-label", isOpen ? strings.close : strings.open)
    path.setAttribute("d", isOpen ? CLOSE_ICON : CHAT_ICON)
  }

  const host: PanelHost = {
    root,
    options,
    parleyUrl: new URL(".", script.src),
    container,
    emit,
    requestClose: () => close(true),
    rememberOpen: (open) => wasOpen.write(open ? "1" : undefined),
  }

  const loadPanel = (): Promise<PanelController> => {
    if (loading !== undefined) return loading
    const url = new URL(__PARLEY_PANEL_FILE__, script.src)
    // A failed module fetch may be remembered by the browser under its URL: a retry asks anew.
    if (attempts > 0) url.searchParams.set("attempt", String(attempts))
    attempts += 1
    launcher.setAttribute("aria-busy", "true")
    loading = (import(/* @vite-ignore */ url.href) as Promise<{ mount: MountPanel }>).then(
      (module) => {
        launcher.removeAttribute("aria-busy")
        failed.hidden = true
        controller = module.mount(host)
        return controller
      },
      (error: unknown) => {
        launcher.removeAttribute("aria-busy")
        failed.hidden = false
        loading = undefined
        throw error
      },
    )
    return loading
  }

  const open = async (focus: boolean): Promise<void> => {
    const panel = await loadPanel()
    isOpen = true
    showState()
    host.rememberOpen(true)
    panel.open(focus)
  }

  /** `restoreFocus`: the focus was in the panel (its close button, Escape) and goes back to the launcher. */
  const close = (restoreFocus: boolean): void => {
    if (!isOpen) return
    isOpen = false
    controller?.close()
    showState()
    host.rememberOpen(false)
    if (restoreFocus) launcher.focus()
  }

  launcher.addEventListener("click", () => {
    if (isOpen) close(false)
    else open(true).catch(() => undefined)
  })

  window.Parley = Object.freeze({
    open: () => open(true),
    close: () => close(root.activeElement !== null && root.activeElement !== launcher),
    reset: async () => (await loadPanel()).reset(),
    on: <E extends WidgetEventName>(event: E, handler: Handler<E>) => {
      const set = handlers[event] as Set<Handler<E>> | undefined
      if (set === undefined) throw new TypeError(`Parley.on: unknown event ${String(event)} (message, lead, booking)`)
      set.add(handler)
      return () => {
        set.delete(handler)
      }
    },
  } satisfies ParleyApi)

  document.body.append(hostElement)
  if (options.startOpen || wasOpen.read() === "1") open(false).catch(() => undefined)
}

// `currentScript` is only set while this script runs, so it is read now, before any waiting.
const script =
  (document.currentScript as HTMLScriptElement | null) ??
  document.querySelector<HTMLScriptElement>("script[data-parley-key]")

if (script === null) {
  console.error("Parley widget: cannot find its own script tag (a <script src=…/widget.js data-parley-key=…>).")
} else if (document.body === null) {
  document.addEventListener("DOMContentLoaded", () => install(script), { once: true })
} else {
  install(script)
}
