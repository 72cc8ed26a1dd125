import { readWhen } from "../src/engine/when.ts"
import { detectIntents } from "../src/engine/intent.ts"
const [lang, ...ts] = process.argv.slice(2)
for (const t of ts) console.log(t, JSON.stringify(readWhen(t, lang as never, "2027-03-31", [], "10:00")), JSON.stringify(Object.entries(detectIntents(t, lang as never)).filter(([, v]) => v).map(([k]) => k)))
