/**
 * Two library builds, run one after the other by `npm run build`:
 *
 * - `--mode panel`: the chat panel (Preact), one ES module named by its content hash,
 *   `dist/widget/panel-<hash>.js`, fetched by `import()` on first open and cached for a year.
 * - `--mode loader`: `dist/widget.js`, the script a page embeds, a classic-script IIFE (a page loads
 *   it with a plain `<script async>`; an IIFE leaks no name into the page but `window.Parley`). The
 *   panel's hashed file name is written into it, which is why its URL can stay fixed and short-cached.
 *
 * Both are minified in full (Vite keeps whitespace in ES library builds for tree-shaking by a later
 * bundler; nothing bundles the panel again, so that is only bytes over the wire).
 */
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { defineConfig, type UserConfig } from "vite"

const dist = fileURLToPath(new URL("dist/", import.meta.url))

/** Modern evergreen browsers: constructable stylesheets and `adoptedStyleSheets` need Chromium 73+, Firefox 101+, Safari 16.4+. */
const TARGET = ["chrome111", "firefox111", "safari16.4"]

const shared: UserConfig = {
  // No `public/` copying, no `.env` reading: the widget has no build-time configuration.
  publicDir: false,
  envDir: false,
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
}

const panelFile = (): string => {
  const found = readdirSync(new URL("widget/", `file://${dist}`)).filter((name) => /^panel-[\w-]+\.js$/.test(name))
  if (found.length !== 1)
    throw new Error(`expected one built panel in dist/widget/, found ${found.length}: run --mode panel first`)
  return `widget/${found[0]}`
}

export default defineConfig(({ mode }): UserConfig => {
  if (mode === "panel") {
    return {
      ...shared,
      build: {
        outDir: dist,
        emptyOutDir: true,
        target: TARGET,
        cssMinify: true,
        lib: { entry: "src/panel/index.tsx", formats: ["es"] },
        rolldownOptions: {
          output: {
            entryFileNames: "widget/panel-[hash].js",
            chunkFileNames: "widget/[name]-[hash].js",
            minify: true,
            comments: false,
          },
        },
      },
    }
  }
  if (mode === "loader") {
    return {
      ...shared,
      define: { __PARLEY_PANEL_FILE__: JSON.stringify(panelFile()) },
      build: {
        outDir: dist,
        emptyOutDir: false,
        target: TARGET,
        cssMinify: true,
        lib: {
          entry: "src/loader/index.ts",
          formats: ["iife"],
          name: "ParleyWidgetLoader",
          fileName: () => "widget.js",
        },
        rolldownOptions: { output: { minify: true, comments: false } },
      },
    }
  }
  throw new Error(`vite build --mode panel|loader (got ${mode})`)
})
