/**
 * The conversation: its messages, whether the assistant is replying, the problem to show (with what
 * retrying means), and what the visitor typed. Messages go to Parley one at a time, in order; one
 * that fails stays on screen marked "not sent" (and in `localStorage`, so a reload keeps it), the
 * messages after it wait, and Retry — or simply sending another message — sends them all again, in
 * order; after a reload the unsent messages come back with a Retry. Nothing the visitor typed is
 * dropped, and no failure (5xx, 429, a lost network) leaves the chat unable to send.
 *
 * A message whose request went out and whose answer never came back (the network dropped on the
 * way back, or the page was reloaded meanwhile) may have reached Parley. Before such a message is
 * sent again, and when the conversation is read back after a reload, the transcript says: found
 * there, it is shown as sent with its reply, not sent twice (`arrivedOf`).
 */
import { batch, signal } from "@preact/signals"
import type { PanelHost } from "../../shared/bridge.ts"
import { storedValue } from "../../shared/visitor-memory.ts"
import { failureOf, type PublicApi, type Welcome } from "../api/public-api.ts"
import type { Problem } from "../problem.ts"

export interface ChatItem {
  readonly id: string
  /**
   * `staff`: a person of the business answered (docs/contract.md §17). `held`: the panel's own note that
   * a person holds the conversation (not a message: Parley's transcript does not have it).
   */
  readonly role: "visitor" | "assistant" | "staff" | "held"
  readonly text: string
  /** A visitor message: sent (Parley has it), pending (on its way or waiting its turn), failed. */
  readonly state: "sent" | "pending" | "failed"
  /** When its last request went out (this device's clock): it may have arrived though it "failed". */
  readonly sentAt?: number
}

let counter = 0
const localId = () => `local-${Date.now().toString(36)}-${(counter++).toString(36)}`

interface Unsent {
  readonly id: string
  readonly text: string
  readonly sentAt?: number
}

const parseUnsent = (raw: string | undefined): Array<Unsent> => {
  try {
    const parsed: unknown = JSON.parse(raw ?? "[]")
    return Array.isArray(parsed)
      ? parsed
          .filter((u): u is Unsent => typeof u?.id === "string" && typeof u?.text === "string")
          .map(({ id, text, sentAt }) => (typeof sentAt === "number" ? { id, text, sentAt } : { id, text }))
      : []
  } catch {
    return []
  }
}

/** How far this device's clock may run ahead of Parley's when a sent message is looked for. */
const ClockSlackMs = 5 * 60_000

type TranscriptMessage = Awaited<ReturnType<PublicApi["transcript"]>>["messages"][number]

/**
 * The failed messages that reached Parley all the same: each is the visitor's latest message of the
 * same text in the transcript, stamped no earlier than its request went out (give or take the
 * clocks), each transcript message standing for one of them at most.
 */
const arrivedOf = (items: ReadonlyArray<ChatItem>, transcript: ReadonlyArray<TranscriptMessage>): Set<string> => {
  const arrived = new Set<string>()
  const matched = new Set<number>()
  for (const item of items) {
    const since = item.sentAt
    if (item.state !== "failed" || since === undefined) continue
    const index = transcript.findLastIndex(
      (m, i) =>
        !matched.has(i) &&
        m.role === "visitor" &&
        m.text === item.text &&
        Date.parse(m.createdAt) >= since - ClockSlackMs,
    )
    if (index === -1) continue
    matched.add(index)
    arrived.add(item.id)
  }
  return arrived
}

export type ChatState = ReturnType<typeof makeChatState>

/** `heldNote`: what the visitor is told when a person holds the conversation, in their language. */
export const makeChatState = (api: PublicApi, host: Pick<PanelHost, "emit" | "options">, heldNote: string) => {
  const key = host.options.key
  const sessionMemory = storedValue("localStorage", key, "session")
  const unsentMemory = storedValue("localStorage", key, "unsent")
  const draftMemory = storedValue("localStorage", key, "draft")
  // Once per tab: a reload or another page of the site shows it without asking Parley again.
  const welcomeMemory = storedValue("sessionStorage", key, `welcome:${host.options.locale}`)

  const items = signal<ReadonlyArray<ChatItem>>(
    parseUnsent(unsentMemory.read()).map((u): ChatItem => ({ ...u, role: "visitor", state: "failed" })),
  )
  const replying = signal(false)
  const loadingHistory = signal(false)
  const problem = signal<Problem | undefined>(undefined)
  /** Unsent messages kept from before a reload: offered again with a Retry (set below, once `retryUnsent` exists). */
  const keptUnsent = items.value.length > 0
  /** The text of the last reply, for the panel's live region. */
  const announcement = signal("")
  const draft = signal(draftMemory.read() ?? "")
  /** The business's name and greeting, once Parley has said them (the panel works without them). */
  const welcome = signal<Welcome | undefined>(undefined)

  let sending = false
  /** Until when Parley asked us to wait (a 429 or 503's `Retry-After`): new messages queue behind. */
  let waitUntil = 0
  let lastLead = ""
  /** A person holds the conversation and the visitor was told so: said once per held stretch. */
  let toldHeld = false

  const rememberUnsent = () => {
    const unsent = items.value.filter((item) => item.role === "visitor" && item.state !== "sent")
    unsentMemory.write(
      unsent.length === 0 ? undefined : JSON.stringify(unsent.map(({ id, text, sentAt }) => ({ id, text, sentAt }))),
    )
  }

  const update = (id: string, change: Partial<ChatItem>) => {
    items.value = items.value.map((item) => (item.id === id ? { ...item, ...change } : item))
  }

  const setDraft = (text: string) => {
    draft.value = text
    draftMemory.write(text === "" ? undefined : text)
  }

  /** Sends the pending messages, oldest first, until none is left or one fails. */
  const drain = async (): Promise<void> => {
    if (sending) return
    sending = true
    try {
      for (;;) {
        const next = items.value.find((item) => item.state === "pending")
        if (next === undefined) return
        replying.value = true
        // Remembered before it goes: a reload while it is on its way finds it in the transcript.
        update(next.id, { sentAt: Date.now() })
        rememberUnsent()
        try {
          const sessionId = sessionMemory.read()
          const response = await api.chat({ ...(sessionId === undefined ? {} : { sessionId }), message: next.text })
          sessionMemory.write(response.sessionId)
          // No reply while a person holds the conversation: theirs comes by `catchUp`.
          const reply = response.reply
          batch(() => {
            update(next.id, { state: "sent" })
            if (reply !== null) {
              items.value = [...items.value, { id: localId(), role: "assistant", text: reply.text, state: "sent" }]
              announcement.value = reply.text
              toldHeld = false
            } else if (!toldHeld) {
              // Without a word the visitor would wait for an answer that is not coming from the assistant.
              items.value = [...items.value, { id: localId(), role: "held", text: heldNote, state: "sent" }]
              announcement.value = heldNote
              toldHeld = true
            }
          })
          rememberUnsent()
          host.emit("message", { role: "visitor", text: next.text })
          if (reply !== null) host.emit("message", { role: "assistant", text: reply.text })
          const lead = response.lead
          if (lead !== null && `${lead.id}:${lead.type}` !== lastLead) {
            lastLead = `${lead.id}:${lead.type}`
            host.emit("lead", { id: lead.id, type: lead.type })
          }
        } catch (error) {
          batch(() => {
            items.value = items.value.map((item) => (item.state === "pending" ? { ...item, state: "failed" } : item))
            const failure = failureOf(error)
            waitUntil = failure.kind === "retryLater" ? Date.now() + failure.seconds * 1000 : 0
            problem.value = { failure, retry: retryUnsent }
          })
          return
        } finally {
          replying.value = false
        }
      }
    } finally {
      sending = false
    }
  }

  const retryUnsent = () => {
    problem.value = undefined
    void settleArrived().then(() => {
      items.value = items.value.map((item) => (item.state === "failed" ? { ...item, state: "pending" } : item))
      return drain()
    })
  }

  /**
   * The failed messages whose request went out: those Parley has (the transcript says) are shown as
   * sent, with what came after them, instead of going again. Unreadable now (offline, no
   * `chat:read`): they go again, as before.
   */
  const settleArrived = async (): Promise<void> => {
    const sessionId = sessionMemory.read()
    if (sessionId === undefined || !items.value.some((item) => item.state === "failed" && item.sentAt !== undefined))
      return
    let transcript: Awaited<ReturnType<PublicApi["transcript"]>>
    try {
      transcript = await api.transcript(sessionId)
    } catch {
      return
    }
    const arrived = arrivedOf(items.value, transcript.messages)
    if (arrived.size === 0) return
    batch(() => {
      items.value = items.value.filter((item) => !arrived.has(item.id))
      appendFresh(transcript.messages)
    })
    rememberUnsent()
  }

  if (keptUnsent)
    problem.value = { failure: { kind: "refused", status: 0, code: "unsent", message: "" }, retry: retryUnsent }

  /**
   * Sends what the visitor wrote (the draft is emptied only once the message is safely listed). The
   * messages that failed before it go first, in order: writing again is also a way to retry.
   */
  const send = (text: string) => {
    const message = text.trim().slice(0, 2000)
    if (message === "") return
    if (Date.now() < waitUntil && items.value.some((item) => item.state === "failed")) {
      // Parley asked for a pause: this one waits behind the others for the Retry (or the countdown).
      items.value = [...items.value, { id: localId(), role: "visitor", text: message, state: "failed" }]
      rememberUnsent()
      setDraft("")
      return
    }
    batch(() => {
      problem.value = undefined
      items.value = [
        ...items.value.map((item): ChatItem => (item.state === "failed" ? { ...item, state: "pending" } : item)),
        { id: localId(), role: "visitor", text: message, state: "pending" },
      ]
    })
    rememberUnsent()
    setDraft("")
    void drain()
  }

  /** Reads the conversation back from Parley (§8, `chat:read`), keeping the messages not yet sent. */
  const loadHistory = async (): Promise<void> => {
    const sessionId = sessionMemory.read()
    if (sessionId === undefined) return
    loadingHistory.value = true
    try {
      const transcript = await api.transcript(sessionId)
      const arrived = arrivedOf(items.value, transcript.messages)
      const unsent = items.value.filter((item) => item.state !== "sent" && !arrived.has(item.id))
      batch(() => {
        items.value = [
          ...transcript.messages.map((m): ChatItem => ({ id: localId(), role: m.role, text: m.text, state: "sent" })),
          ...unsent,
        ]
        // Every message kept from before the reload had arrived: nothing is left to retry.
        const failure = problem.value?.failure
        if (arrived.size > 0 && !unsent.some((item) => item.state === "failed") && failure?.kind === "refused")
          if (failure.code === "unsent") problem.value = undefined
      })
      if (arrived.size > 0) rememberUnsent()
    } catch (error) {
      const failure = failureOf(error)
      if (failure.kind === "refused" && failure.status === 404) {
        // Parley no longer knows this session: the next message starts a new one.
        sessionMemory.write(undefined)
      } else if (failure.kind === "refused" && failure.code === "missing_scope") {
        // A key without chat:read: the conversation goes on, only its history cannot be shown.
      } else {
        problem.value = { failure, retry: retryHistory }
      }
    } finally {
      loadingHistory.value = false
    }
  }

  const retryHistory = () => {
    problem.value = undefined
    void loadHistory()
  }

  /**
   * What Parley has beyond what the panel shows — a person's replies (docs/contract.md §17) — added at the
   * end and announced. Not while a message is on its way (its reply is on its way too). Answers
   * false when the key cannot read the conversation (no `chat:read`), so the caller stops asking.
   */
  const catchUp = async (): Promise<boolean> => {
    const sessionId = sessionMemory.read()
    if (sessionId === undefined || sending || loadingHistory.value) return true
    let transcript: Awaited<ReturnType<PublicApi["transcript"]>>
    try {
      transcript = await api.transcript(sessionId)
    } catch (error) {
      const failure = failureOf(error)
      return !(failure.kind === "refused" && (failure.code === "missing_scope" || failure.status === 404))
    }
    if (sending || sessionMemory.read() !== sessionId) return true
    appendFresh(transcript.messages)
    return true
  }

  /** Adds, announces and tells the page about the transcript's messages beyond those shown as sent. */
  const appendFresh = (messages: ReadonlyArray<TranscriptMessage>) => {
    const shown = items.value.filter((item) => item.state === "sent" && item.role !== "held").length
    const fresh = messages.slice(shown)
    if (fresh.length === 0) return
    batch(() => {
      items.value = [
        ...items.value,
        ...fresh.map((m): ChatItem => ({ id: localId(), role: m.role, text: m.text, state: "sent" })),
      ]
      const spoken = fresh.filter((m) => m.role !== "visitor").at(-1)
      if (spoken !== undefined) announcement.value = spoken.text
    })
    for (const m of fresh) if (m.role !== "visitor") host.emit("message", { role: m.role, text: m.text })
  }

  /** `Parley.reset()`: Parley clears the conversation (§8); here, everything is forgotten. */
  const reset = async (): Promise<void> => {
    const sessionId = sessionMemory.read()
    batch(() => {
      items.value = []
      problem.value = undefined
      announcement.value = ""
    })
    unsentMemory.write(undefined)
    setDraft("")
    lastLead = ""
    toldHeld = false
    if (sessionId === undefined) return
    try {
      await api.resetChat(sessionId)
    } catch {
      // Unreachable, or the session is gone: a new session on the next message starts over all the same.
      sessionMemory.write(undefined)
    }
  }

  /** The greeting shown when the panel opens on an empty conversation, and the default title. */
  const loadWelcome = async (): Promise<void> => {
    const remembered = welcomeMemory.read()
    try {
      if (remembered !== undefined) {
        welcome.value = JSON.parse(remembered) as Welcome
        return
      }
      welcome.value = await api.welcome(host.options.locale)
      welcomeMemory.write(JSON.stringify(welcome.value))
    } catch {
      // The panel's own words stand in ("Chat with us", "Ask us anything").
    }
  }

  /** Back online: what failed for want of a network goes again. */
  const online = () => {
    if (problem.value?.failure.kind === "offline") problem.value.retry()
  }

  return {
    items,
    replying,
    loadingHistory,
    problem,
    announcement,
    draft,
    welcome,
    setDraft,
    send,
    loadHistory,
    loadWelcome,
    catchUp,
    reset,
    online,
  }
}
