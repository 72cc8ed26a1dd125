/**
 * Messages (docs/contract.md §14, §9): the conversation with one customer number (or every message),
 * newest first and paged, and a text message sent to that number — or, when the provider's 24-hour
 * customer-service window with that customer is closed (their last message on the cloud channel is
 * older, or there is none; or the API answered `outside_service_window`), a template instead.
 */

import { useRef, useState } from "preact/hooks"
import { useLocation } from "preact-iso"
import { api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import {
  definedOnly,
  type FieldErrors,
  focusFirstInvalid,
  issueErrors,
  SelectField,
  TextField,
} from "../../ui/fields.tsx"
import { formatTimePrecise } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { guarded, Page, Section, TableScroll } from "../../ui/page.tsx"
import { Pager, usePaging } from "../../ui/pager.tsx"
import { readablePhone } from "../../ui/phone.ts"
import { isPhone } from "../campaigns/recipients.ts"
import { SendTemplate } from "./send-template.tsx"

const WINDOW_MS = 24 * 60 * 60 * 1000

const phoneProblem = (phone: string): string | undefined =>
  isPhone(phone.trim()) ? undefined : "Enter a phone number of 7–15 digits, like +1 415 555 0100."

const SendText = ({
  phone,
  onSent,
  onWindowClosed,
}: {
  phone: string
  onSent: () => void
  onWindowClosed: () => void
}) => {
  const [to, setTo] = useState(phone)
  const [text, setText] = useState("")
  const [channel, setChannel] = useState<"" | "cloud" | "bridge">("")
  const [errors, setErrors] = useState<FieldErrors>({})
  const [sent, setSent] = useState<string | undefined>(undefined)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const submit = async (event: Event) => {
    event.preventDefault()
    setSent(undefined)
    const found: FieldErrors = {
      to: phoneProblem(to),
      text: text.trim() === "" ? "Write the message." : text.length > 4096 ? "At most 4096 characters." : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const answer = await action.run(() =>
      unwrap(
        api.POST("/api/messages", { body: { to: to.trim(), text, ...(channel === "" ? {} : { channel }) } }),
      ).catch((failure: unknown) => {
        if ((failure as { code?: string }).code === "outside_service_window") onWindowClosed()
        throw failure
      }),
    )
    if (answer === undefined) return
    setText("")
    setSent(`Sent (provider id ${answer.messageId}).`)
    onSent()
  }
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} title="Not sent." />
      {sent === undefined ? null : <StatusNotice>{sent}</StatusNotice>}
      <div class="row">
        <TextField label="To" type="tel" value={to} onValue={setTo} error={shown.to} required />
        <SelectField
          label="Channel"
          value={channel}
          onValue={(value) => setChannel(value as typeof channel)}
          options={[
            { value: "", label: "Default (cloud when connected)" },
            { value: "cloud", label: "Cloud" },
            { value: "bridge", label: "Bridge" },
          ]}
        />
      </div>
      <TextField label="Message" multiline rows={3} value={text} onValue={setText} error={shown.text} required />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Sending…" : "Send message"}
      </button>
    </form>
  )
}

const MessagesScreen = () => {
  const { query } = useLocation()
  const [phoneInput, setPhoneInput] = useState(query.phone ?? "")
  const [phone, setPhone] = useState(query.phone ?? "")
  const [error, setError] = useState<string | undefined>(undefined)
  const paging = usePaging()
  const messages = useLoad(
    () =>
      unwrap(
        api.GET("/api/messages", {
          params: {
            query: {
              limit: "50",
              ...(phone === "" ? {} : { phone }),
              ...(paging.cursor === undefined ? {} : { cursor: paging.cursor }),
            },
          },
        }),
      ),
    [phone, paging.cursor],
  )
  const list = messages.data?.data ?? []
  // The filter as typed until its messages arrive, then as Parley read it ("(415) 555-0188" → "+1 415 555 0188").
  const customer = phone === "" || messages.loading || list[0] === undefined ? phone : readablePhone(list[0].phone)
  // In the heading the number stays on one line on a phone (no-break spaces).
  const title = phone === "" ? "All messages" : `Conversation with ${customer.replaceAll(" ", "\u00a0")}`
  const [refused, setRefused] = useState(false)
  // The window is known from the newest customer message on the cloud channel among those shown.
  const lastInbound = list.find((m) => m.direction === "inbound" && m.channel === "cloud")
  const windowClosed =
    phone !== "" &&
    messages.data !== undefined &&
    paging.page === 1 &&
    (refused || lastInbound === undefined || Date.now() - Date.parse(lastInbound.createdAt) > WINDOW_MS)
  const filter = (event: Event) => {
    event.preventDefault()
    const problem = phoneInput.trim() === "" ? undefined : phoneProblem(phoneInput)
    setError(problem)
    if (problem !== undefined) return
    setPhone(phoneInput.trim())
    setRefused(false)
    paging.reset()
  }
  return (
    <Page title="Messages" intro="What your customers wrote on the phone channels, and what was sent to them.">
      <Section title={title}>
        <form class="row" onSubmit={filter} noValidate>
          <TextField
            label="Customer number"
            type="tel"
            value={phoneInput}
            onValue={setPhoneInput}
            error={error}
            hint="Empty: every customer."
          />
          <div class="field">
            <button type="submit" class="secondary">
              Show messages
            </button>
          </div>
        </form>
        <ErrorNotice error={messages.error} />
        {messages.data === undefined && messages.loading ? (
          <Loading what="messages" />
        ) : list.length === 0 ? (
          <EmptyState title={phone === "" ? "No messages yet." : "No messages with that number."}>
            Messages appear once a channel is connected on the <a href="/console/channels">Channels</a> screen.
          </EmptyState>
        ) : (
          <TableScroll label="Messages">
            {/* On a phone each message is a card, each value under its column's name (`cards`). */}
            <table class="cards">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Direction</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Text</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {list.map((message) => (
                  <tr key={message.id}>
                    <td class="nowrap" data-label="When">
                      {formatTimePrecise(message.createdAt)}
                    </td>
                    <td data-label="Direction">{message.direction === "inbound" ? "received" : "sent"}</td>
                    <td class="nowrap" data-label="Customer">
                      {readablePhone(message.phone)}
                    </td>
                    <td data-label="Text">
                      {message.text === "" ? <span class="muted">({message.type})</span> : message.text}
                    </td>
                    <td class="nowrap" data-label="Channel">
                      {message.channel}
                      {/* A customer message of the sandbox channel (§16): Parley played the provider. */}
                      {message.sandbox ? (
                        <>
                          {" "}
                          <span class="badge badge-warn">Sandbox</span>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Status">
                      {message.status}
                      {message.error === null ? null : <span class="field-error"> {message.error}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        <Pager paging={paging} nextCursor={messages.data?.nextCursor} label="Messages" />
      </Section>
      {may("POST /api/messages") && windowClosed ? (
        <Section title="The 24-hour window is closed">
          <p role="status" class="notice notice-warn">
            {lastInbound === undefined
              ? `${customer} has not written on the cloud channel`
              : `${customer} last wrote ${formatTimePrecise(lastInbound.createdAt)}`}
            , so the provider accepts no free-form text until they write again. Send an approved template instead.
          </p>
          <SendTemplate key={phone} to={phone} onSent={messages.reload} />
        </Section>
      ) : null}
      {may("POST /api/messages") ? (
        <Section title="Send a text message">
          <SendText key={phone} phone={phone} onSent={messages.reload} onWindowClosed={() => setRefused(true)} />
        </Section>
      ) : null}
    </Page>
  )
}

export const Messages = guarded(() => may("GET /api/messages"), "Messages", MessagesScreen)
