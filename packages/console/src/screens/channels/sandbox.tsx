/**
 * The sandbox (docs/contract.md §16): a cloud channel in which Parley plays the messaging provider, so
 * the assistant on the phone channel, templates, campaigns and every webhook event can be tried
 * with no provider account. "Simulate a customer" writes to the sandbox number as a customer would
 * and shows the conversation: the assistant's replies and the statuses the sandbox reports.
 */
import { useEffect, useRef, useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import { ConfirmButton } from "../../ui/confirm.tsx"
import { focusFirstInvalid, TextField } from "../../ui/fields.tsx"
import { formatTime } from "../../ui/format.ts"
import { useAction, useInterval, useLoad } from "../../ui/hooks.ts"
import { ErrorNotice } from "../../ui/notice.tsx"
import { sendErrorInWords } from "../../ui/send-error.ts"

type Channel = Answer<"/api/channels", "get">["data"][number]
type Message = Answer<"/api/messages", "get">["data"][number]

/** Connects the sandbox; replacing a real channel asks first, since its token is then forgotten. */
export const ConnectSandbox = ({ cloud, onConnected }: { cloud: Channel | undefined; onConnected: () => void }) => {
  const action = useAction()
  const connect = async () => {
    const done = await action.run(() => unwrap(api.PUT("/api/channels/cloud", { body: { sandbox: true } })))
    if (done !== undefined) onConnected()
  }
  return (
    <div>
      <ErrorNotice error={action.error} />
      {cloud === undefined ? (
        <button type="button" class="primary" onClick={connect} disabled={action.pending}>
          {action.pending ? "Connecting…" : "Connect the sandbox"}
        </button>
      ) : (
        <ConfirmButton
          label="Replace with the sandbox"
          title="Replace your cloud channel with the sandbox?"
          confirmLabel="Replace with the sandbox"
          danger
          disabled={action.pending}
          onConfirm={connect}
        >
          <p>
            The connected number <strong>{cloud.displayPhoneNumber ?? cloud.phoneNumberId}</strong> stops receiving and
            sending through Parley, and its access token is forgotten. To connect it again you will paste the token
            again.
          </p>
        </ConfirmButton>
      )}
    </div>
  )
}

const statusBadge = (status: string) =>
  status === "read" || status === "delivered"
    ? "badge-ok"
    : status === "failed"
      ? "badge-bad"
      : status === "received"
        ? ""
        : "badge-warn"

/** How long after a customer's message the conversation is read again, every second. */
const FOLLOW_MS = 15_000
/** How long the number field must rest before the transcript switches to that number. */
const TYPING_PAUSE_MS = 400

export const SimulateCustomer = ({ channel }: { channel: Channel }) => {
  const [from, setFrom] = useState("+1 415 555 0123")
  // Empty, not a sample name: whatever is here is sent as the customer's name, so it must be chosen.
  const [name, setName] = useState("")
  const [text, setText] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const [followUntil, setFollowUntil] = useState(0)
  // The transcript follows the number field, read once typing pauses rather than at every keystroke.
  const [watched, setWatched] = useState(from)
  useEffect(() => {
    const settle = setTimeout(() => setWatched(from), TYPING_PAUSE_MS)
    return () => clearTimeout(settle)
  }, [from])
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const list = useRef<HTMLDivElement>(null)
  const digits = watched.replace(/[^0-9]/g, "")
  // Each answer names the number it is for: another number's conversation is never shown under this one.
  const conversation = useLoad(
    async () => ({
      digits,
      messages:
        digits.length < 7
          ? []
          : (await unwrap(api.GET("/api/messages", { params: { query: { phone: digits, limit: "30" } } }))).data,
    }),
    [digits],
  )
  useInterval(
    () => {
      if (Date.now() > followUntil) setFollowUntil(0)
      else conversation.reload()
    },
    1000,
    followUntil > 0,
  )
  const send = async (event: Event) => {
    event.preventDefault()
    const problem =
      from.replace(/[^0-9]/g, "").length < 7
        ? "Enter the customer's number, like +1 415 555 0123."
        : text.trim() === ""
          ? "Write the customer's message."
          : undefined
    setError(problem)
    if (problem !== undefined) return focusFirstInvalid(form.current)
    const sent = await action.run(() =>
      unwrap(
        api.POST("/api/sandbox/inbound", {
          body: { from, text: text.trim(), ...(name.trim() === "" ? {} : { name: name.trim() }) },
        }),
      ),
    )
    if (sent === undefined) return
    setText("")
    setWatched(from)
    setFollowUntil(Date.now() + FOLLOW_MS)
    conversation.reload()
    setTimeout(() => list.current?.scrollTo({ top: list.current.scrollHeight }), 50)
  }
  const shown = conversation.data?.digits === digits ? conversation.data.messages : undefined
  const lines: Array<Message> = [...(shown ?? [])].reverse()
  return (
    <div class="simulate">
      <h3>Simulate a customer</h3>
      <p class="hint">
        Write to <strong>{channel.displayPhoneNumber}</strong> as a customer would. The message goes through the same
        path as a provider's: your webhooks receive <code>message.inbound</code> (see{" "}
        <a href="/console/settings/webhooks">Webhooks</a>), the assistant answers, and a customer who gives a name or
        asks for something becomes a lead (see <a href="/console/leads">Leads</a>). A number ending in 0000 is refused
        as undeliverable, so failures can be tried too.
      </p>
      <form ref={form} onSubmit={send} noValidate>
        <div class="row">
          <TextField
            label="Customer number"
            type="tel"
            value={from}
            onValue={setFrom}
            error={error?.startsWith("Enter") ? error : undefined}
            autoComplete="off"
          />
          <TextField
            label="Customer name (optional)"
            value={name}
            onValue={setName}
            placeholder="Sam Rivera"
            autoComplete="off"
          />
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the transcript scrolls, so it must take the focus */}
        <div class="chat" ref={list} tabIndex={0} role="log" aria-label="Sandbox conversation" aria-live="polite">
          {shown === undefined ? (
            <p class="muted">Reading the conversation with {watched}…</p>
          ) : lines.length === 0 ? (
            <p class="muted">No messages with {watched} yet. Say hello, ask about opening hours, or ask to book.</p>
          ) : (
            <ol>
              {lines.map((line) => (
                <li key={line.id} class={`bubble bubble-${line.direction === "inbound" ? "visitor" : "assistant"}`}>
                  <span class="visually-hidden">{line.direction === "inbound" ? "Customer: " : "Business: "}</span>
                  {line.text}
                  <span class="bubble-meta">
                    {formatTime(line.createdAt)}
                    {line.direction === "outbound" ? (
                      <span class={`badge ${statusBadge(line.status)}`}>{line.status}</span>
                    ) : null}
                  </span>
                  {line.error === null ? null : <span class="bubble-meta">{sendErrorInWords(line.error)}</span>}
                </li>
              ))}
            </ol>
          )}
        </div>
        <ErrorNotice error={action.error ?? conversation.error} />
        <div class="row">
          <TextField
            label="Customer's message"
            value={text}
            onValue={setText}
            error={error?.startsWith("Write") ? error : undefined}
            autoComplete="off"
          />
          <div class="field actions">
            <button type="submit" class="primary" disabled={action.pending}>
              {action.pending ? "Sending…" : "Send as customer"}
            </button>
          </div>
        </div>
      </form>
    </div>
  )
}
