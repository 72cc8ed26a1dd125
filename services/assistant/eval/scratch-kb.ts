// scratch: node --conditions=source eval/scratch-kb.ts <file> <lang> "question"...
import { readFileSync } from "node:fs"
import { findAnswer } from "../src/engine/knowledge.ts"
const [file, lang, ...qs] = process.argv.slice(2)
const d = JSON.parse(readFileSync(file as string, "utf8"))
const w = d.worlds[lang as string]
for (const q of qs) console.log(q, "=>", findAnswer(w.profile.faqs, w.profile.about, q, w.profile.languages[0])?.answer)
