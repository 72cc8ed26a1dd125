/** The conversations, most recently active first: who, where, who holds it, and who waits for a person. */
import { formatTime } from "../../ui/format.ts"
import { type ConversationSummary, channelLabel, customerLabel, holderLabel } from "./labels.ts"

export const ConversationList = ({
  conversations,
  selected,
  myId,
  hrefOf,
}: {
  conversations: ReadonlyArray<ConversationSummary>
  selected: string | undefined
  myId: string | undefined
  hrefOf: (id: string) => string
}) => (
  <ul class="inbox-list" aria-label="Conversations">
    {conversations.map((c) => (
      <li key={c.id} class={`inbox-item${c.waiting ? " waiting" : ""}${c.id === selected ? " selected" : ""}`}>
        <a href={hrefOf(c.id)} aria-current={c.id === selected ? "true" : undefined}>
          <span class="inbox-item-head">
            <strong>{customerLabel(c)}</strong>
            <span class="muted">{formatTime(c.updatedAt)}</span>
          </span>
          <span class="inbox-item-tags">
            <span class="badge">{channelLabel(c.channel)}</span>
            {c.waiting ? <span class="badge badge-warn">Waiting for a person</span> : null}
            <span class={`badge${c.state === "human" ? " badge-ok" : ""}`}>
              {c.state === "human" ? `Held by ${holderLabel(c, myId)}` : "Assistant"}
            </span>
          </span>
          {c.lastMessage === null ? null : (
            <span class="inbox-item-last" dir="auto">
              {c.lastMessage.role === "customer" ? "" : `${c.lastMessage.role === "staff" ? "Team" : "Assistant"}: `}
              {c.lastMessage.text}
            </span>
          )}
        </a>
      </li>
    ))}
  </ul>
)
