/**
 * A business's web page with the widget on it, served on its own loopback origin (not Parley's),
 * under the strictest Content-Security-Policy §15 promises to work with: Parley's origin named in
 * `script-src` and `connect-src` only, nothing inline, no frames, fonts or images from anywhere else.
 * `npm run demo:widget` shows it to a newcomer; the browser tests drive it.
 *
 * Pages: `/` (the widget), `/about` (the same site, for navigation), and `/hostile` — the widget
 * under a stylesheet that restyles everything it can reach (`* { … !important }`).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface HostPageOptions {
  /** Parley's base URL, where `/widget.js` is served: `http://127.0.0.1:3000`. */
  readonly parleyUrl: string
  /** The widget key. */
  readonly widgetKey: string
  /** More `data-parley-*` attributes: `{ color: "#ffd400", position: "left" }`. */
  readonly attributes?: Readonly<Record<string, string>>
  /** The page's `dir` (`rtl` for a right-to-left page) and `lang`. */
  readonly dir?: "ltr" | "rtl"
  readonly lang?: string
  /** Where to listen; `127.0.0.1` and a free port by default. */
  readonly host?: string
  readonly port?: number
}

export interface HostPage {
  /** `http://localhost:<port>`: another origin than Parley's `http://127.0.0.1:<port>`. */
  readonly origin: string
  readonly server: Server
  readonly close: () => Promise<void>
}

/** The host page's CSP: Parley named in script-src and connect-src, and nowhere else. */
export const hostPageCsp = (parleyUrl: string): string => {
  const parley = new URL(parleyUrl).origin
  return [
    "default-src 'none'",
    `script-src ${parley}`,
    `connect-src ${parley}`,
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ")
}

const escapeAttribute = (value: string): string =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

const SITE_CSS = `
  body { margin: 0; font: 17px/1.6 Georgia, "DejaVu Serif", serif; color: #1d2a33; background: #f6f1ea; }
  header { padding: 28px 8vw; background: #0f3d3e; color: #f6f1ea; }
  header a { color: #f6f1ea; }
  nav { display: flex; gap: 20px; margin-top: 8px; }
  main { max-width: 46rem; padding: 24px 8vw 120px; }
  h1 { margin: 0; font-size: 30px; }
  .card { padding: 18px 22px; margin: 18px 0; background: #fff; border-radius: 12px; }
`

/** A site whose styles reach everything they can: the widget must look and work the same. */
const HOSTILE_CSS = `${SITE_CSS}
  * { font-family: "Comic Sans MS", cursive !important; color: #ff00ff !important; line-height: 3 !important;
      box-sizing: content-box !important; letter-spacing: 2px !important; }
  button, div, p, span, ol, li, section, form, textarea, input { display: none !important; margin: 40px !important; }
  parley-widget { display: none !important; opacity: 0 !important; transform: scale(0.1) !important; }
  :root { --parley-accent: red; }
`

const page = (options: HostPageOptions, title: string, body: string, css: string): string => {
  const attributes = Object.entries(options.attributes ?? {})
    .map(([name, value]) => ` data-parley-${name}="${escapeAttribute(value)}"`)
    .join("")
  const src = new URL("widget.js", new URL("/", options.parleyUrl)).href
  return `<!doctype html>
<html lang="${escapeAttribute(options.lang ?? "en")}" dir="${options.dir ?? "ltr"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Harbour Dental</title>
<link rel="stylesheet" href="/${css}">
</head>
<body>
<header><h1>Harbour Dental</h1><nav><a href="/">Home</a><a href="/about">About us</a></nav></header>
<main>${body}</main>
<script src="${escapeAttribute(src)}" data-parley-key="${escapeAttribute(options.widgetKey)}"${attributes} async></script>
</body>
</html>
`
}

const HOME = `
<p>Family dentistry by the harbour since 1987. Check-ups, cleaning and whitening, six days a week.</p>
<div class="card"><h2>Opening hours</h2><p>Monday to Saturday, 9:00 to 17:00.</p></div>
<div class="card"><h2>Questions?</h2><p>Ask our assistant in the chat at the bottom of the page, or book a time there.</p></div>`

const ABOUT = `
<p>We are a team of four dentists and six hygienists. New patients are always welcome.</p>`

export interface HostPageResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** The answer of the host site to a path: also served to Chromium by interception for an https origin. */
export const hostPageResponse = (options: HostPageOptions, path: string): HostPageResponse => {
  const html = (title: string, body: string, css: string): HostPageResponse => ({
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": hostPageCsp(options.parleyUrl),
      "cache-control": "no-store",
    },
    body: page(options, title, body, css),
  })
  const css = (body: string): HostPageResponse => ({
    status: 200,
    headers: { "content-type": "text/css; charset=utf-8", "cache-control": "no-store" },
    body,
  })
  switch (path) {
    case "/":
      return html("Home", HOME, "site.css")
    case "/about":
      return html("About", ABOUT, "site.css")
    case "/hostile":
      return html("Home", HOME, "hostile.css")
    case "/site.css":
      return css(SITE_CSS)
    case "/hostile.css":
      return css(HOSTILE_CSS)
    // A browser asks for the icon by itself; a 404 would be logged as an error on every page.
    case "/favicon.ico":
      return { status: 204, headers: {}, body: "" }
    default:
      return { status: 404, headers: { "content-type": "text/plain" }, body: "not found" }
  }
}

export const startHostPage = async (options: HostPageOptions): Promise<HostPage> => {
  const server = createServer((request, response) => {
    const answer = hostPageResponse(options, new URL(request.url ?? "/", "http://host").pathname)
    response.writeHead(answer.status, answer.headers).end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://localhost:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
