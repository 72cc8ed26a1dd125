/**
 * Writes `src/engine/language-ngrams.json`: eld's "small" n-gram database cut to the five languages
 * the engine speaks, as eld's own `saveSubset` does (the same entries and weights, the other
 * languages' left out). The whole database holds 60 languages and costs every Parley process ~45 MB
 * of heap; the subset ~5 MB, and scores the five languages exactly as the whole one does.
 *
 * Run after upgrading eld: `npm run language-ngrams -w @parley/assistant`
 * (src/engine/language.test.ts fails while the file and the installed eld disagree).
 */
import { writeFile } from "node:fs/promises"
import { eldSubset } from "./eld-subset.ts"

const target = new URL("../src/engine/language-ngrams.json", import.meta.url)
const subset = await eldSubset()
await writeFile(target, `${JSON.stringify(subset)}\n`)
console.log(
  `${target.pathname}: ${Object.keys(subset.ngrams).length} n-grams of ${Object.values(subset.languages).join(", ")}`,
)
