import { display, doubtfulNumber, phoneOf, reply, type Step, type Turn } from "./dialogue-turn.ts"
import type { ConversationState } from "./state.ts"

/**
 * A callback, a demo or a number left (docs/contract.md §8): noted and said back as the visitor reads
 * it, or the number asked for (and a number no plan knows checked with the visitor first).
 */
/** A callback or demo asked for: noted when the number is known, else the number asked for. */
export const requestCall = (turn: Turn, kind: "callback" | "demo"): Step => {
  const { catalog, state } = turn
  const phone = phoneOf(turn)
  const doubtful = doubtfulNumber(turn)
  if (doubtful !== undefined) return reply(turn, catalog.checkNumber(doubtful), { ...state, awaiting: "phone" })
  if (phone === undefined) {
    const ask = kind === "demo" ? catalog.askPhoneForDemo(state.name) : catalog.askPhoneForCallback(state.name)
    return reply(turn, ask, { ...state, awaiting: "phone" })
  }
  const shown = display(turn, phone)
  const noted = kind === "demo" ? catalog.demoNoted(state.name, shown) : catalog.callbackNoted(state.name, shown)
  return reply(turn, turn.corrected ? `${catalog.phoneCorrected(shown)} ${noted}` : noted, {
    ...state,
    awaiting: "done",
  })
}

export const numberNoted = (turn: Turn, previous: ConversationState): Step => {
  const { catalog, state } = turn
  const doubtful = doubtfulNumber(turn)
  if (doubtful !== undefined) return reply(turn, catalog.checkNumber(doubtful), { ...state, awaiting: "phone" })
  const shown = display(turn, state.phone ?? "")
  const done: ConversationState = { ...state, awaiting: "done" }
  if (turn.corrected) return reply(turn, catalog.phoneCorrected(shown), done)
  if (state.demo && !previous.demo) return reply(turn, catalog.demoNoted(state.name, shown), done)
  if (previous.awaiting === "phone" && state.demo) return reply(turn, catalog.demoNoted(state.name, shown), done)
  if (state.callback) return reply(turn, catalog.callbackNoted(state.name, shown), done)
  // Times were offered and none chosen ("Which time would you like?" — "I'm Sam, 415 555 0142"): the
  // number is noted and the time asked for again, never "someone will get back to you" mid-booking.
  const offered = previous.awaiting === "time" ? previous.offered : undefined
  if (offered !== undefined) {
    const day = turn.formats.date(offered.date)
    return reply(turn, catalog.numberNotedWhichTime(state.name, shown, day), { ...state, offered, awaiting: "time" })
  }
  return reply(turn, catalog.numberNoted(state.name, shown), done)
}
