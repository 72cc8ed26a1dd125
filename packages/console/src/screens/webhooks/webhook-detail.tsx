/**
 * One webhook (docs/contract.md §14, §5): its health; for an administrator, edit (URL, events), enable
 * or disable, rotate the secret (the new one shown once), delete, replay a window and send a test
 * event; and its delivery log.
 */

import { useRef, useState } from "preact/hooks"
import { useLocation, useRoute } from "preact-iso"
import { api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { ConfirmButton } from "../../ui/confirm.tsx"
import { Checkbox, definedOnly, type FieldErrors, focusFirstInvalid, issueErrors, TextField } from "../../ui/fields.tsx"
import { countOf } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { Page, Section } from "../../ui/page.tsx"
import { SecretForms, ShownOnce } from "../../ui/secret.tsx"
import { type Awaited, awaitDelivery, DeliveryLog } from "./delivery-log.tsx"
import { type Catalogue, type EventName, EventsField, useCatalogue } from "./events-field.tsx"
import { Health, type Webhook } from "./health.tsx"
import { TestEvent } from "./test-event.tsx"
import { newWebhookSecret, webhookUrlProblem } from "./webhook-url.ts"

const EditWebhook = ({
  webhook,
  catalogue,
  onSaved,
}: {
  webhook: Webhook
  catalogue: Catalogue
  onSaved: () => void
}) => {
  const [url, setUrl] = useState(webhook.url)
  const [events, setEvents] = useState<Array<EventName>>([...webhook.events])
  const [errors, setErrors] = useState<FieldErrors>({})
  const [saved, setSaved] = useState(false)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const submit = async (event: Event) => {
    event.preventDefault()
    setSaved(false)
    const found: FieldErrors = {
      url: webhookUrlProblem(url),
      events: events.length === 0 ? "Choose at least one event." : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const answer = await action.run(() =>
      unwrap(
        api.PUT("/api/org/webhooks/{id}", { params: { path: { id: webhook.id } }, body: { url: url.trim(), events } }),
      ),
    )
    if (answer === undefined) return
    setSaved(true)
    onSaved()
  }
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} />
      {saved ? <StatusNotice>Saved. The change applies to events from now on.</StatusNotice> : null}
      <TextField label="URL" type="url" value={url} onValue={setUrl} error={shown.url} required spellcheck={false} />
      <EventsField catalogue={catalogue} selected={events} onSelected={setEvents} error={shown.events} />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Saving…" : "Save changes"}
      </button>
    </form>
  )
}

/** Redelivers every delivery of a time window (§5), at most 10 000. */
const Replay = ({ webhookId }: { webhookId: string }) => {
  const [since, setSince] = useState("")
  const [until, setUntil] = useState("")
  const [failedOnly, setFailedOnly] = useState(true)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [queued, setQueued] = useState<number | undefined>(undefined)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    setQueued(undefined)
    const from = since === "" ? undefined : new Date(since)
    const to = until === "" ? undefined : new Date(until)
    const found: FieldErrors = {
      since: from === undefined || Number.isNaN(from.getTime()) ? "Choose when the window starts." : undefined,
      until:
        to !== undefined && from !== undefined && to.getTime() <= from.getTime()
          ? "The end must come after the start."
          : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean) || from === undefined) return focusFirstInvalid(form.current)
    const answer = await action.run(() =>
      unwrap(
        api.POST("/api/org/webhooks/{id}/replay", {
          params: { path: { id: webhookId } },
          body: {
            since: from.toISOString(),
            ...(to === undefined ? {} : { until: to.toISOString() }),
            ...(failedOnly ? { status: "failed" as const } : {}),
          },
        }),
      ),
    )
    if (answer !== undefined) setQueued(answer.queued)
  }
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} />
      {queued === undefined ? null : (
        <StatusNotice>
          {queued === 0
            ? "Nothing to replay in that window."
            : `${queued} ${queued === 1 ? "delivery" : "deliveries"} queued again.`}
        </StatusNotice>
      )}
      <div class="row">
        <TextField
          label="From"
          type="datetime-local"
          value={since}
          onValue={setSince}
          error={errors.since}
          required
          hint="In your time zone."
        />
        <TextField
          label="Until"
          type="datetime-local"
          value={until}
          onValue={setUntil}
          error={errors.until}
          hint="Empty: until now."
        />
      </div>
      <Checkbox label="Only deliveries whose last attempt failed" checked={failedOnly} onChecked={setFailedOnly} />
      <button type="submit" class="secondary" disabled={action.pending}>
        {action.pending ? "Replaying…" : "Replay window"}
      </button>
    </form>
  )
}

export const WebhookDetail = () => {
  const { params } = useRoute()
  const { route } = useLocation()
  const id = params.id ?? ""
  const webhook = useLoad(() => unwrap(api.GET("/api/org/webhooks/{id}", { params: { path: { id } } })), [id])
  const change = useAction()
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const [rotated, setRotated] = useState<string | undefined>(undefined)
  const [awaited, setAwaited] = useState<Awaited | undefined>(undefined)
  const admin = may("PUT /api/org/webhooks/{id}")
  const catalogue = useCatalogue()

  const current = webhook.data
  if (current === undefined) {
    return (
      <Page title="Webhook">
        <p>
          <a href="/console/settings/webhooks">← All webhooks</a>
        </p>
        {webhook.error === undefined ? <Loading what="the webhook" /> : <ErrorNotice error={webhook.error} />}
      </Page>
    )
  }

  const setEnabled = async (enabled: boolean) => {
    setNotice(undefined)
    const answer = await change.run(() =>
      unwrap(api.PUT("/api/org/webhooks/{id}", { params: { path: { id } }, body: { enabled } })),
    )
    if (answer === undefined) return
    setNotice(
      enabled
        ? "Enabled: new events are delivered again."
        : "Disabled: events are not delivered or queued for it until it is enabled. Test events still go out.",
    )
    webhook.reload()
  }
  const rotate = async () => {
    setNotice(undefined)
    const secret = newWebhookSecret()
    const answer = await change.run(() =>
      unwrap(api.PUT("/api/org/webhooks/{id}", { params: { path: { id } }, body: { secret } })),
    )
    if (answer !== undefined) setRotated(secret)
  }
  const remove = async () => {
    const answer = await change.run(async () => {
      await unwrap(api.DELETE("/api/org/webhooks/{id}", { params: { path: { id } } }))
      return true
    })
    if (answer) route("/console/settings/webhooks")
  }

  return (
    <Page title={`Webhook ${current.url}`}>
      <p>
        <a href="/console/settings/webhooks">← All webhooks</a>
      </p>
      {rotated === undefined ? null : (
        <ShownOnce kept="encrypted" title="New secret" onDone={() => setRotated(undefined)}>
          <p>
            Deliveries are signed with it from now on. For 24 hours the previous secret also signs{" "}
            <code>webhook-signature</code>, so your receiver can switch over without dropping a delivery.
          </p>
          <SecretForms secret={rotated} signingSecret={`whsec_${rotated}`} />
        </ShownOnce>
      )}
      {notice === undefined ? null : <StatusNotice>{notice}</StatusNotice>}
      <ErrorNotice error={change.error} title="Not changed." />
      {current.enabled ? null : (
        <p class="warning">
          <strong>This webhook is disabled.</strong> Events are not delivered or queued for it until it is enabled
          (enabling does not send what happened meanwhile). Test events you send still go out, so you can try your
          receiver first.
        </p>
      )}
      <Section
        title="Health"
        actions={
          admin ? (
            <>
              <button
                type="button"
                class="secondary"
                disabled={change.pending}
                onClick={() => setEnabled(!current.enabled)}
              >
                {current.enabled ? "Disable" : "Enable"}
              </button>
              <ConfirmButton label="Rotate secret" title="Rotate the secret?" confirmLabel="Rotate" onConfirm={rotate}>
                <p>A new secret signs every later delivery; the old one keeps signing for 24 hours alongside it.</p>
              </ConfirmButton>
              <ConfirmButton
                label="Delete"
                title="Delete this webhook?"
                confirmLabel="Delete webhook"
                danger
                onConfirm={remove}
              >
                <p>
                  Nothing more is delivered to <code>{current.url}</code>. Its delivery log goes with it. This cannot be
                  undone.
                </p>
              </ConfirmButton>
            </>
          ) : undefined
        }
      >
        <p>
          {current.enabled ? <span class="badge badge-ok">enabled</span> : <span class="badge">disabled</span>}{" "}
          {countOf(current.events.length, "event", "events")}
        </p>
        <Health webhook={current} />
      </Section>
      {may("POST /api/org/webhooks/{id}/test") ? (
        <Section title="Send a test event">
          <TestEvent
            webhookId={id}
            catalogue={catalogue}
            onSent={(deliveryId) => setAwaited(awaitDelivery(deliveryId))}
          />
        </Section>
      ) : null}
      {admin ? (
        <Section title="Replay a time window">
          <Replay webhookId={id} />
        </Section>
      ) : null}
      <DeliveryLog
        webhookId={id}
        awaited={awaited}
        onAwait={(deliveryId) => setAwaited(awaitDelivery(deliveryId))}
        onChange={webhook.reload}
      />
      {admin ? (
        <Section title="Edit">
          <EditWebhook key={current.id} webhook={current} catalogue={catalogue} onSaved={webhook.reload} />
        </Section>
      ) : null}
    </Page>
  )
}
