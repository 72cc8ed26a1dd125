import type { LeadInput, LeadSource } from "../leads/record-lead.ts"
import { leadTypeOf } from "./lead-type.ts"
import type { ConversationState } from "./state.ts"

/**
 * The lead a conversation amounts to after a turn, if any (CONTRACT.md §7–8):
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
      state.name !== undefined || state.callback || state.demo || state.bookingAsked || state.booking !== undefined
    if (!somethingToRecord) return undefined
  }
  return {
    phone,
    name: state.name ?? "",
    type: leadTypeOf({ booked: state.booking !== undefined, demo: state.demo, callback: state.callback }),
    booking: state.booking ?? null,
    source,
  }
}
