import type { BookedSlot, ConversationState } from "../engine/state.ts"

/**
 * What the model's tools have done so far this turn, kept outside the turn's effect so that the
 * caller still knows it when the turn fails or is cut off at its deadline: the state after the
 * tool calls that succeeded, and the booking made (at most one per turn).
 */
export interface ModelProgress {
  state: ConversationState
  booked: BookedSlot | undefined
  /**
   * A `book_slot` commit under way. It is uninterruptible, so a turn cut off at its deadline waits
   * for it (it settles once the booking committed or was refused) before the deterministic engine
   * may answer: a booking that commits as the deadline passes is confirmed, never booked twice.
   */
  committing?: Promise<void> | undefined
}
