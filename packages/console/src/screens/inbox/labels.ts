/** How the inbox names channels, states and who holds a conversation. */
import type { Answer } from "../../api/client.ts"
import { readablePhone } from "../../ui/phone.ts"

export type ConversationSummary = Answer<"/api/conversations", "get">["data"][number]
export type ConversationDetail = Answer<"/api/conversations/{id}", "get">

export const CHANNELS = [
  { value: "widget", label: "Website chat" },
  { value: "cloud", label: "Cloud number" },
  { value: "bridge", label: "Bridge number" },
] as const

export const channelLabel = (channel: string): string => CHANNELS.find((c) => c.value === channel)?.label ?? channel

export const customerLabel = (c: Pick<ConversationSummary, "customer" | "channel">): string =>
  c.customer.name ?? (c.customer.phone === null ? "Website visitor" : readablePhone(c.customer.phone))

/** "You", the holder's email, or "Assistant". */
export const holderLabel = (c: Pick<ConversationSummary, "state" | "assignee">, myId: string | undefined): string =>
  c.state === "assistant" || c.assignee === null
    ? "Assistant"
    : c.assignee.id === myId
      ? "You"
      : c.assignee.email === ""
        ? "An API key"
        : c.assignee.email

export const LEAD_TYPES: Readonly<Record<string, string>> = {
  CALLBACK_REQUESTED: "Callback requested",
  DEMO_REQUESTED: "Demo requested",
  BOOKING: "Booking",
  GENERAL_INQUIRY: "General inquiry",
}
