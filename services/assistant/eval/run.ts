/**
 * `npm run eval -w @parley/assistant [-- --verbose] [-- --only <id-prefix>]`: runs the evaluation
 * corpus and prints the per-category, per-language table (see README.md, "Evaluation").
 * Needs Postgres like the tests (`DATABASE_URL`, else the local default).
 */
import { CORPUS } from "./corpus/index.ts"
import { evaluate, fullyRight, table } from "./evaluate.ts"

const args = process.argv.slice(2)
const verbose = args.includes("--verbose")
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined
const corpus = only === undefined ? CORPUS : CORPUS.filter((c) => c.id.startsWith(only))

const started = performance.now()
const outcomes = await evaluate(corpus)
if (verbose) {
  for (const outcome of outcomes.filter((o) => !fullyRight(o))) {
    console.log(`\n✗ ${outcome.conversation.id}`)
    for (const { visitor, reply } of outcome.transcript) console.log(`  > ${visitor}\n  < ${reply}`)
    for (const problem of outcome.problems) console.log(`  ! ${problem}`)
  }
  console.log("")
}
console.log(table(outcomes))
console.log(`\n(${outcomes.length} conversations in ${((performance.now() - started) / 1000).toFixed(1)} s)`)
