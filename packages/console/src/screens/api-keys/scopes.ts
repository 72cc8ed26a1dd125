/** The scopes of docs/contract.md §2.1 and what a key with a given set of them is (§2.3). */
import type { Answer } from "../../api/client.ts"

export type Scope = Answer<"/api/org/api-keys/{id}", "get">["scopes"][number]

export const SCOPES: ReadonlyArray<{ value: Scope; label: string; hint: string }> = [
  { value: "chat:write", label: "chat:write", hint: "Chat with the assistant (the website widget)." },
  { value: "chat:read", label: "chat:read", hint: "Read a conversation back, so the widget keeps it across reloads." },
  { value: "bookings:read", label: "bookings:read", hint: "See free booking slots in the widget." },
  { value: "bookings:write", label: "bookings:write", hint: "Book a slot from the widget." },
  {
    value: "messages:send",
    label: "messages:send",
    hint: "Server key: the whole private API, acting as an administrator. Never put it in a web page.",
  },
]

/** What a key with these scopes can do, in one sentence (§2.3). */
export const keyKind = (scopes: ReadonlyArray<Scope>): { kind: "widget" | "server" | "full"; text: string } => {
  if (scopes.length === 0) {
    return {
      kind: "full",
      text: "No scope: a full-access key. It acts as an administrator on the private API and can use every widget route. Keep it on your server.",
    }
  }
  if (scopes.includes("messages:send")) {
    return {
      kind: "server",
      text: "A server key: it acts as an administrator on the private API, and on /api/public only with the widget scopes chosen. Keep it on your server.",
    }
  }
  return {
    kind: "widget",
    text: "A widget key: it works only on the website widget and /api/public, with these scopes. It is safe in a web page; limit it to your site's origins.",
  }
}
