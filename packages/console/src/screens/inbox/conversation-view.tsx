/**
 * One conversation: its messages oldest first (every page, so the newest is at the bottom), who holds
 * it, take over / release, a person's reply, and the customer and their lead beside it.
 */
import { useEffect, useRef, useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { isAdmin } from "../../session.ts"
import { TextField } from "../../ui/fields.tsx"
import { formatTimePrecise } from "../../ui/format.ts"
import { type Action, useAction } from "../../ui/hooks.ts"
import { ErrorNotice } from "../../ui/notice.tsx"
import { readablePhone } from "../../ui/phone.ts"
import { type ConversationDetail, channelLabel, customerLabel, holderLabel, LEAD_TYPES } from "./labels.ts"

/** Every page of a conversation, up to a bound no real conversation reaches. */
const MAX_PAGES = 20

export const readConversation = async (id: string): Promise<ConversationDetail> => {
  let cursor: string | undefined
  let whole: ConversationDetail | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const next: ConversationDetail = await unwrap(
      api.GET("/api/conversations/{id}", {
        params: { path: { id }, query: { limit: "100", ...(cursor === undefined ? {} : { cursor }) } },
      }),
    )
    whole = whole === undefined ? next : { ...next, messages: [...whole.messages, ...next.messages] }
    if (next.nextCursor === null) break
    cursor = next.nextCursor
  }
  return whole as ConversationDetail
}

const Messages = ({ conversation }: { conversation: ConversationDetail }) => {
  const box = useRef<HTMLElement>(null)
  useEffect(() => {
    if (box.current !== null) box.current.scrollTop = box.current.scrollHeight
  }, [conversation.messages.length])
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard
    <section class="chat inbox-messages" ref={box} tabIndex={0} aria-label="Messages">
      <ol>
        {conversation.messages.map((m, index) => (
          <li key={`${index}-${m.at}`} class={`bubble bubble-${m.role === "customer" ? "customer" : m.role}`}>
            <span class="bubble-from">
              {m.role === "customer"
                ? customerLabel(conversation)
                : m.role === "staff"
                  ? (m.author?.email ?? "Team")
                  : "Assistant"}{" "}
              · <time dateTime={m.at}>{formatTimePrecise(m.at)}</time>
            </span>
            <span dir="auto">{m.text}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}

const Reply = ({ conversation, onSent }: { conversation: ConversationDetail; onSent: () => void }) => {
  const [text, setText] = useState("")
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const action = useAction()
  const send = async (event?: Event) => {
    event?.preventDefault()
    if (text.trim() === "") return setProblem("Write the reply.")
    if (text.length > 4096) return setProblem("At most 4096 characters.")
    setProblem(undefined)
    const sent = await action.run(() =>
      unwrap(
        api.POST("/api/conversations/{id}/messages", { params: { path: { id: conversation.id } }, body: { text } }),
      ),
    )
    if (sent === undefined) return
    setText("")
    onSent()
  }
  return (
    <form
      class="inbox-reply"
      onSubmit={send}
      noValidate
      onKeyDown={(event) => {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void send(event)
      }}
    >
      <ErrorNotice error={action.error} title="Not sent." />
      <TextField
        label="Reply"
        multiline
        rows={3}
        value={text}
        onValue={setText}
        error={problem}
        hint={
          conversation.channel === "widget"
            ? "Shown in the visitor's chat within a few seconds. Ctrl+Enter sends."
            : `Sent to ${customerLabel(conversation)} on the ${channelLabel(conversation.channel).toLowerCase()}. Ctrl+Enter sends.`
        }
      />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Sending…" : conversation.state === "human" ? "Send reply" : "Take over and reply"}
      </button>
    </form>
  )
}

const HoldActions = ({
  conversation,
  mine,
  action,
  onChanged,
}: {
  conversation: ConversationDetail
  mine: boolean
  action: Action
  onChanged: () => void
}) => {
  const change = (what: "takeover" | "release") =>
    action
      .run(() =>
        unwrap(
          what === "takeover"
            ? api.POST("/api/conversations/{id}/takeover", { params: { path: { id: conversation.id } } })
            : api.POST("/api/conversations/{id}/release", { params: { path: { id: conversation.id } } }),
        ),
      )
      .then((done) => done !== undefined && onChanged())
  const held = conversation.state === "human"
  return (
    <div class="actions">
      {!held || (!mine && isAdmin.value) ? (
        <button type="button" class="primary" disabled={action.pending} onClick={() => change("takeover")}>
          Take over
        </button>
      ) : null}
      {held && (mine || isAdmin.value) ? (
        <button type="button" class="secondary" disabled={action.pending} onClick={() => change("release")}>
          Release to the assistant
        </button>
      ) : null}
    </div>
  )
}

export const ConversationView = ({
  conversation,
  myId,
  onChanged,
}: {
  conversation: ConversationDetail
  myId: string | undefined
  onChanged: () => void
}) => {
  const action = useAction()
  const held = conversation.state === "human"
  const mine = held && conversation.assignee?.id === myId
  const mayReply = !held || mine || isAdmin.value
  return (
    <div class="inbox-conversation">
      <div class="inbox-main">
        <h2 id="inbox-conversation-title">{customerLabel(conversation)}</h2>
        <p class="inbox-status" role="status">
          {held ? (
            <span class="badge badge-ok">Held by {holderLabel(conversation, myId)}</span>
          ) : (
            <span class="badge">The assistant is answering</span>
          )}
          {conversation.waiting ? <span class="badge badge-warn">Waiting for a person</span> : null}
        </p>
        <ErrorNotice error={action.error} />
        <HoldActions conversation={conversation} mine={mine} action={action} onChanged={onChanged} />
        <Messages conversation={conversation} />
        {mayReply ? (
          <Reply conversation={conversation} onSent={onChanged} />
        ) : (
          <p class="notice">
            {holderLabel(conversation, myId)} holds this conversation: only they or an administrator can reply.
          </p>
        )}
      </div>
      <aside class="inbox-aside" aria-label="Customer">
        <h3>Customer</h3>
        <dl>
          <dt>Name</dt>
          <dd>{conversation.customer.name ?? "—"}</dd>
          <dt>Phone</dt>
          <dd>{conversation.customer.phone === null ? "—" : readablePhone(conversation.customer.phone)}</dd>
          <dt>Channel</dt>
          <dd>{channelLabel(conversation.channel)}</dd>
          <dt>Lead</dt>
          <dd>
            {conversation.lead === null ? (
              "None yet"
            ) : (
              <a href="/console/leads">{LEAD_TYPES[conversation.lead.type] ?? conversation.lead.type}</a>
            )}
          </dd>
        </dl>
      </aside>
    </div>
  )
}
