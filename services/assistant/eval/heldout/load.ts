/**
 * The held-out evaluation set (`heldout.json`): conversations written by someone who read only
 * docs/contract.md §8 and a business profile, never the engine, each with its own business (one per
 * language, `worlds`) and the moment of the week it is played at (`moments`, the organization's
 * wall clock). The file is kept as it was written; `note` says how, and any expectation corrected
 * since says why there.
 */
import { readFileSync } from "node:fs"
import type { Conversation, ExpectedLead, Lang, Moment, World } from "../corpus/index.ts"

interface HeldOutFile {
  readonly note: string
  readonly moments: Readonly<Record<string, { readonly date: string; readonly time: string }>>
  readonly worlds: Readonly<Record<Lang, World>>
  readonly conversations: ReadonlyArray<
    Omit<Conversation, "world" | "moment" | "lead"> & {
      readonly moment: string
      readonly lead: (Omit<ExpectedLead, "name"> & { readonly name: string | null }) | null
    }
  >
}

export const loadHeldOut = (path = new URL("./heldout.json", import.meta.url)): ReadonlyArray<Conversation> => {
  const file = JSON.parse(readFileSync(path, "utf8")) as HeldOutFile
  const moments = new Map<string, Moment>(
    Object.entries(file.moments).map(([label, at]) => [label, { label, date: at.date, time: at.time }]),
  )
  return file.conversations.map((conversation) => {
    const moment = moments.get(conversation.moment)
    if (moment === undefined) throw new Error(`${conversation.id}: unknown moment ${conversation.moment}`)
    // The third set writes "no name" as `null` where the others (and `ExpectedLead`) write `""`: the
    // same expectation, read as the runner compares it (the file stays as written).
    const lead: ExpectedLead | null =
      conversation.lead === null ? null : { ...conversation.lead, name: conversation.lead.name ?? "" }
    return { ...conversation, lead, world: file.worlds[conversation.lang], moment }
  })
}
