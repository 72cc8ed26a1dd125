/**
 * Inbox (docs/contract.md §17): every conversation of the website chat and both phone channels, filtered
 * by channel and state, updated live; a conversation opened beside the list (alone on a phone), where
 * a person takes it over, replies and releases it, with the customer's lead beside it.
 */
import "./inbox.css"
import { useEffect, useRef, useState } from "preact/hooks"
import { useLocation } from "preact-iso"
import { api, unwrap } from "../../api/client.ts"
import { may, session } from "../../session.ts"
import { SelectField } from "../../ui/fields.tsx"
import { useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading } from "../../ui/notice.tsx"
import { guarded, Page } from "../../ui/page.tsx"
import { Pager, usePaging } from "../../ui/pager.tsx"
import { ConversationList } from "./conversation-list.tsx"
import { ConversationView, readConversation } from "./conversation-view.tsx"
import { CHANNELS } from "./labels.ts"
import { type LiveState, useConversationEvents } from "./live.ts"

type Channel = (typeof CHANNELS)[number]["value"]
type State = "assistant" | "human"

/** Events come in bursts (a message and its reply): the list is read again at most this often. */
const RELOAD_AT_MOST_EVERY_MS = 400

const LIVE_TEXT: Record<LiveState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting… (changes will appear once back)",
}

const InboxScreen = () => {
  const { query, route } = useLocation()
  const selected = query.conversation
  const [channel, setChannel] = useState<Channel | "">("")
  const [state, setState] = useState<State | "">("")
  const paging = usePaging()
  const myId = session.value?.user.id

  const list = useLoad(
    () =>
      unwrap(
        api.GET("/api/conversations", {
          params: {
            query: {
              limit: "50",
              ...(channel === "" ? {} : { channel }),
              ...(state === "" ? {} : { state }),
              ...(paging.cursor === undefined ? {} : { cursor: paging.cursor }),
            },
          },
        }),
      ),
    [channel, state, paging.cursor],
  )
  const detail = useLoad(
    () => (selected === undefined ? Promise.resolve(undefined) : readConversation(selected)),
    [selected],
  )

  // Live: a change to the open conversation reads it again; any change reads the list again (throttled).
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(pending.current), [])
  const live = useConversationEvents((id) => {
    if (id === undefined || id === selected) detail.reload()
    if (pending.current !== undefined) return
    pending.current = setTimeout(() => {
      pending.current = undefined
      list.reload()
    }, RELOAD_AT_MOST_EVERY_MS)
  })

  const hrefOf = (id: string) => `/console/inbox?conversation=${encodeURIComponent(id)}`
  const conversations = list.data?.data ?? []
  const waiting = conversations.filter((c) => c.waiting).length
  const changed = () => {
    detail.reload()
    list.reload()
  }

  return (
    <Page
      title="Inbox"
      intro="Conversations on the website chat and the phone numbers. Take one over to answer yourself."
    >
      <div class={`inbox${selected === undefined ? "" : " has-selection"}`}>
        <section class="panel inbox-side" aria-label="Conversations">
          <div class="panel-head">
            <h2>
              Conversations {waiting > 0 ? <span class="badge badge-warn">{waiting} waiting for a person</span> : null}
            </h2>
            <span class={`inbox-live inbox-live-${live}`} role="status">
              {LIVE_TEXT[live]}
            </span>
          </div>
          <div class="row">
            <SelectField
              label="Channel"
              value={channel}
              onValue={(value) => {
                setChannel(value as Channel | "")
                paging.reset()
              }}
              options={[{ value: "", label: "All channels" }, ...CHANNELS]}
            />
            <SelectField
              label="State"
              value={state}
              onValue={(value) => {
                setState(value as State | "")
                paging.reset()
              }}
              options={[
                { value: "", label: "All" },
                { value: "assistant", label: "With the assistant" },
                { value: "human", label: "Held by a person" },
              ]}
            />
          </div>
          <ErrorNotice error={list.error} />
          {list.data === undefined && list.loading ? (
            <Loading what="conversations" />
          ) : conversations.length === 0 ? (
            <EmptyState title="No conversations here yet.">
              Conversations appear when a visitor writes in the website chat or a customer writes to a connected number.
            </EmptyState>
          ) : (
            <ConversationList conversations={conversations} selected={selected} myId={myId} hrefOf={hrefOf} />
          )}
          <Pager paging={paging} nextCursor={list.data?.nextCursor} label="Conversations" />
        </section>
        <section class="panel inbox-detail" aria-labelledby="inbox-conversation-title">
          {selected === undefined ? (
            <p class="muted" id="inbox-conversation-title">
              Choose a conversation to read it.
            </p>
          ) : (
            <>
              <a
                class="inbox-back"
                href="/console/inbox"
                onClick={(event) => {
                  event.preventDefault()
                  route("/console/inbox")
                }}
              >
                ← All conversations
              </a>
              <ErrorNotice error={detail.error} />
              {detail.data === undefined ? (
                detail.loading ? (
                  <Loading what="the conversation" />
                ) : null
              ) : (
                <ConversationView conversation={detail.data} myId={myId} onChanged={changed} />
              )}
            </>
          )}
        </section>
      </div>
    </Page>
  )
}

export const Inbox = guarded(() => may("GET /api/conversations"), "Inbox", InboxScreen)
