import { defineConfig } from "vite"

/**
 * The console is served by the gateway under `/console/` (services/gateway/src/web/console.ts):
 * hashed files under `assets/` are cached for a year, `index.html` is revalidated. Its CSP allows
 * the console's own files only, so nothing may be inlined (no data: URLs, no inline script).
 *
 * `npm run dev -w @parley/console` serves the sources with hot reload against a Parley on
 * :3000 (`npm start`); the proxy presents that Parley's own origin, as CSRF (§2.4) requires.
 */
const parley = process.env.PARLEY_URL ?? "http://localhost:3000"

export default defineConfig({
  base: "/console/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    target: "es2022",
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  server: {
    proxy: { "/api": { target: parley, headers: { origin: new URL(parley).origin } } },
  },
})
