import { answerQuestion, rangesText } from "./answers.ts"
import { reply, type Step, type Turn, tidy } from "./dialogue-turn.ts"
import type { ConversationState } from "./state.ts"

// Questions asked beside the booking dialogue: answered, and the booking carried on in the same reply
// (docs/contract.md §8: never a booking reply that drops the question, never a question that drops the booking).

/**
 * A question beside the booking dialogue, while it waits for the name or the number of a slot
 * chosen: it names no other slot (a day only for the opening hours) and asks for no change. The
 * answer, then the question the booking is waiting on, asked again; undefined when nothing answers.
 */
export const questionAside = (turn: Turn, previous: ConversationState): Step | undefined => {
  const { intents, when } = turn.facts
  const { pending, awaiting } = previous
  if (pending === undefined || (awaiting !== "name" && awaiting !== "phone")) return undefined
  if (!intents.question || turn.facts.phone !== undefined || turn.facts.name !== undefined) return undefined
  if (intents.booking || intents.cancel || intents.move || intents.callback || intents.demo) return undefined
  if (when.time !== undefined || when.earliest || (when.date !== undefined && !intents.hours)) return undefined
  const answer = answerQuestion(turn.facts, turn.context, turn.catalog, turn.formats, true)
  if (answer === undefined || answer.callbackOffered) return undefined
  const { catalog, formats, state } = turn
  const again =
    awaiting === "name"
      ? catalog.askName(pending.service, formats.date(pending.date), formats.time(pending.time))
      : catalog.askPhoneForBooking(state.name)
  return reply(turn, `${answer.text} ${again}`, { ...state, pending, awaiting })
}

/**
 * A booking step's reply with the question its message asked in a sentence of its own first
 * answered ("How much is a consultation? Can I book one tomorrow at 3pm?": the price, then the
 * slot). Only a question that names no slot (a day only for the opening hours) and that the
 * business's knowledge answers without a callback offer; a question about a closed day that the
 * booking is for is left to the booking's reply, which says it is closed.
 */
export const withQuestionBeside = (turn: Turn, step: Step): Step => {
  if (step.kind !== "reply") return step
  const asked = turn.facts.questionBeside()
  if (asked === undefined) return step
  const { intents, when } = asked
  if (when.time !== undefined && !intents.hours) return step
  if ((when.date !== undefined || when.earliest || when.week !== undefined) && !intents.hours) return step
  const { context, catalog, formats } = turn
  const closedDayBooked =
    intents.hours &&
    when.date !== undefined &&
    when.date === turn.facts.when.date &&
    rangesText(context, formats, when.date) === ""
  if (closedDayBooked) return step
  const answer = answerQuestion(asked, context, catalog, formats, true)
  if (answer === undefined || answer.callbackOffered) return step
  return { ...step, text: tidy(`${answer.text} ${step.text}`) }
}
