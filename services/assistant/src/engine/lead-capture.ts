import type { Booking, LeadType } from "@parley/contracts"
import { leadTypeOf } from "./lead-type.ts"
import type { ConversationState } from "./state.ts"

/** Where a lead was first recorded: the widget chat, the widget booking form, or a phone channel. */
export type LeadSource = "chat" | "booking" | "cloud" | "bridge"

/** What a conversation (or a booking) says about one phone number, for `recordLead`. */
export interface LeadInput {
  readonly phone: string
  /** `""` when unknown. */
  readonly name: string
  readonly type: LeadType
  readonly booking: Booking | null
  readonly source: LeadSource
  /**
   * The conversation took something back — a callback it no longer wants, a booking it cancelled —
   * so the lead's listed type is this turn's, not the stronger of the stored and this one, and no
   * booking means none (docs/contract.md §8: "the lead's request withdrawn").
   */
  readonly withdrawn?: boolean
  /**
   * The number is the conversation's own: the channel's sender (the provider vouches for it), or a
   * lead this conversation created (on the widget, in the chat or its booking form). Only its own
   * conversation changes a known number's lead (name, type, booking) and announces it; a number typed
   * into the widget may be anyone's, and a stranger must not retype, rename or rebook another
   * customer's lead (docs/contract.md §8: "never another visitor's"), so there the lead is left as it
   * was (`recordLead`'s `notOwn`).
   */
  readonly own?: boolean
  /**
   * The booking this one moves (a booking this conversation made): a lead that holds it follows the
   * move even when it is not the conversation's own (its widget form booked under a known number).
   */
  readonly replaces?: Booking
  /**
   * The widget's booking form (`POST /api/public/bookings`): docs/contract.md §8 has it record or
   * update the number's lead with type BOOKING and the booking, whoever's it is; the name there only
   * fills an empty one.
   */
  readonly form?: boolean
}

/**
 * The lead a conversation amounts to after a turn, if any (docs/contract.md §7–8):
 * - on the widget, as soon as the visitor has given a phone number;
 * - on a phone channel the customer's own number is known from the first message, but it makes a
 *   lead only once there is something to record: a name, a request (callback, demo, booking) or a
 *   booking.
 */
export const leadOfConversation = (
  state: ConversationState,
  source: LeadSource,
  customerPhone?: string,
): LeadInput | undefined => {
  const phone = customerPhone ?? state.phone
  if (phone === undefined) return undefined
  if (customerPhone !== undefined) {
    const somethingToRecord =
      state.name !== undefined ||
      state.callback ||
      state.demo ||
      state.bookingAsked ||
      state.booking !== undefined ||
      state.bookingMade === true
    if (!somethingToRecord) return undefined
  }
  return {
    phone,
    name: state.name ?? "",
    type: leadTypeOf({
      booked: state.booking !== undefined || state.bookingMade === true,
      demo: state.demo,
      callback: state.callback,
    }),
    booking: state.booking ?? null,
    source,
    ...(state.noCall === true ? { withdrawn: true } : {}),
    ...(customerPhone !== undefined ? { own: true } : {}),
  }
}
