import type { LeadType } from "@parley/contracts"

/**
 * The lead type a conversation resolves to. Precedence, strongest first:
 * BOOKING (a booking was made: a fact, not a wish) > DEMO_REQUESTED (a specific request that usually
 * includes a call) > CALLBACK_REQUESTED > GENERAL_INQUIRY.
 */
export const LEAD_TYPE_PRECEDENCE: ReadonlyArray<LeadType> = [
  "BOOKING",
  "DEMO_REQUESTED",
  "CALLBACK_REQUESTED",
  "GENERAL_INQUIRY",
]

export interface ConversationFacts {
  readonly booked: boolean
  readonly demo: boolean
  readonly callback: boolean
}

export const leadTypeOf = (facts: ConversationFacts): LeadType =>
  facts.booked ? "BOOKING" : facts.demo ? "DEMO_REQUESTED" : facts.callback ? "CALLBACK_REQUESTED" : "GENERAL_INQUIRY"

const rank = (type: string): number => {
  const at = LEAD_TYPE_PRECEDENCE.indexOf(type as LeadType)
  return at === -1 ? LEAD_TYPE_PRECEDENCE.length : at
}

/**
 * The stronger of two types. A returning lead keeps its strongest type: a visitor who booked and
 * later asks a general question in a new conversation is still a BOOKING lead.
 */
export const strongerLeadType = (a: string, b: string): string => (rank(b) < rank(a) ? b : a)
