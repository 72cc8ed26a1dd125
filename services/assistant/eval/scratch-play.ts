// scratch (not committed): node --conditions=source eval/scratch-play.ts <heldout json> <lang> <date> <time> "turn1" "turn2" ...
import { readFileSync } from "node:fs"
import { evaluate } from "./evaluate.ts"
const [file, lang, date, time, ...turns] = process.argv.slice(2)
const data = JSON.parse(readFileSync(file as string, "utf8"))
const world = data.worlds[lang as string]
const convs = turns.join("\u0001").split("\u0001||\u0001").map((group, i) => ({
  id: `scratch-${i}`, lang, category: "general", turns: group.split("\u0001"), lead: null, world,
  moment: { label: "m", date, time },
}))
const outcomes = await evaluate(convs as never)
for (const o of outcomes) {
  console.log(`--- ${o.conversation.id}`)
  for (const t of o.transcript) console.log(`  > ${t.visitor}\n  < ${t.reply}`)
  for (const p of o.problems) if (!p.startsWith("expected no lead")) console.log(`  ! ${p}`)
}
