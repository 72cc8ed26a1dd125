/**
 * `npm run bench -w @parley/bench -- <name>`: runs the benchmark in `./<name>/main.ts`. Each
 * benchmark is a folder with its own README saying what it measures and how to read it.
 */
import { readdirSync, statSync } from "node:fs"

const here = new URL(".", import.meta.url)
const available = readdirSync(here).filter(
  (entry) => entry !== "node_modules" && statSync(new URL(entry, here)).isDirectory(),
)
const name = process.argv[2]
if (name === undefined || !available.includes(name)) {
  console.error(`usage: npm run bench -w @parley/bench -- <${available.join("|")}>`)
  process.exit(2)
}
await import(new URL(`./${name}/main.ts`, here).href)
