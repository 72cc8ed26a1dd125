/**
 * `npm run eval -w @parley/assistant [-- --verbose] [-- --only <id-prefix>] [-- --heldout | --heldout2 | … | --heldout5 | --moments]`:
 * runs the evaluation corpus (or, with `--heldout`, the held-out set of `eval/heldout/`, each
 * conversation at its own moment of the week; with `--heldout2`, the second held-out set of
 * `eval/heldout2/`, written the same way, played around Europe's daylight-saving change of 28 March
 * 2027 and a month end; with `--heldout3`, the third, written the same way, played on the night
 * Europe leaves summer time (31 October 2027) and the Friday and Saturday before; with `--heldout4`,
 * the fourth, written the same way after the engine learnt to answer a question asked beside a
 * booking request, a bare hello and a name sent after a booking; with `--heldout5`, the fifth,
 * weekends and relative days said at awkward moments; with `--moments`,
 * `eval/moments/`: the same requests at every weekday and hour that matters) and prints the
 * per-category, per-language table (see README.md, "Evaluation").
 * Needs Postgres like the tests (`DATABASE_URL`, else the local default).
 */
import { CORPUS } from "./corpus/index.ts"
import { evaluate, fullyRight, table } from "./evaluate.ts"
import { loadHeldOut } from "./heldout/load.ts"
import { MOMENTS_CORPUS } from "./moments/moments.ts"

const args = process.argv.slice(2)
const verbose = args.includes("--verbose")
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined
/** The held-out sets, each written by someone who never read the engine (README.md, "Evaluation"). */
const HELD_OUT: Readonly<Record<string, () => ReturnType<typeof loadHeldOut>>> = {
  "--heldout": () => loadHeldOut(),
  "--heldout2": () => loadHeldOut(new URL("./heldout2/heldout2.json", import.meta.url)),
  "--heldout3": () => loadHeldOut(new URL("./heldout3/heldout3.json", import.meta.url)),
  "--heldout4": () => loadHeldOut(new URL("./heldout4/heldout4.json", import.meta.url)),
  "--heldout5": () => loadHeldOut(new URL("./heldout5/heldout5.json", import.meta.url)),
}
const heldOut = Object.keys(HELD_OUT).find((flag) => args.includes(flag))
const all = heldOut !== undefined ? (HELD_OUT[heldOut]?.() ?? []) : args.includes("--moments") ? MOMENTS_CORPUS : CORPUS
const corpus = only === undefined ? all : all.filter((c) => c.id.startsWith(only))

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
