/**
 * Settings → Webhooks (docs/contract.md §14, §5): each webhook with its health, and a new one created
 * with the events chosen from the catalogue, its secret shown once.
 */
import { useRef, useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { definedOnly, type FieldErrors, focusFirstInvalid, issueErrors, TextField } from "../../ui/fields.tsx"
import { formatTime } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading } from "../../ui/notice.tsx"
import { Page, Section, TableScroll } from "../../ui/page.tsx"
import { SecretForms, ShownOnce } from "../../ui/secret.tsx"
import { type EventName, EventsField, useCatalogue } from "./events-field.tsx"
import { OutcomeBadge } from "./health.tsx"
import { webhookUrlProblem } from "./webhook-url.ts"

type CreatedWebhook = Answer<"/api/org/webhooks", "post">

const CreateWebhook = ({ onCreated }: { onCreated: (created: CreatedWebhook) => void }) => {
  const catalogue = useCatalogue()
  const [url, setUrl] = useState("")
  const [events, setEvents] = useState<Array<EventName> | undefined>(undefined)
  const [errors, setErrors] = useState<FieldErrors>({})
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  // Every event until the person chooses otherwise, as §5's default does.
  const chosen = events ?? catalogue.data?.data.map((e) => e.name) ?? []
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }

  const submit = async (event: Event) => {
    event.preventDefault()
    const found: FieldErrors = {
      url: webhookUrlProblem(url),
      events: chosen.length === 0 ? "Choose at least one event." : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const created = await action.run(() =>
      unwrap(api.POST("/api/org/webhooks", { body: { url: url.trim(), events: chosen } })),
    )
    if (created === undefined) return
    setUrl("")
    setEvents(undefined)
    onCreated(created)
  }

  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} />
      <TextField
        label="URL"
        type="url"
        value={url}
        onValue={setUrl}
        error={shown.url}
        required
        placeholder="https://example.com/parley/events"
        spellcheck={false}
        hint="Parley POSTs each event here, signed with the webhook's secret. It must be reachable from Parley."
      />
      <EventsField catalogue={catalogue} selected={chosen} onSelected={setEvents} error={shown.events} />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Creating…" : "Create webhook"}
      </button>
    </form>
  )
}

export const Webhooks = () => {
  const webhooks = useLoad(() => unwrap(api.GET("/api/org/webhooks")), [])
  const [created, setCreated] = useState<CreatedWebhook | undefined>(undefined)
  const list = webhooks.data?.data ?? []
  return (
    <Page
      title="Webhooks"
      intro="Parley tells your systems what happens — messages, leads, bookings, templates, campaigns — by POSTing signed events to your URLs. At most 5 webhooks."
    >
      {created === undefined ? null : (
        <ShownOnce kept="encrypted" title={`Webhook created for ${created.url}`} onDone={() => setCreated(undefined)}>
          <p>
            Verify each delivery with this secret (see <a href="/docs">the API docs</a> and{" "}
            <code>@parley/webhooks</code>).
          </p>
          <SecretForms secret={created.secret} signingSecret={created.signingSecret} />
        </ShownOnce>
      )}
      <Section title="Your webhooks">
        <ErrorNotice error={webhooks.error} />
        {webhooks.data === undefined && webhooks.loading ? (
          <Loading what="webhooks" />
        ) : list.length === 0 ? (
          <EmptyState title="No webhooks yet.">
            {may("POST /api/org/webhooks")
              ? "Add the URL of your receiver below to get events as they happen."
              : "An administrator can add one."}
          </EmptyState>
        ) : (
          <TableScroll label="Webhooks">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">State</th>
                  <th scope="col">Events</th>
                  <th scope="col">Last delivery</th>
                  <th scope="col">Last response</th>
                  <th scope="col">Failures</th>
                </tr>
              </thead>
              <tbody>
                {list.map((webhook) => (
                  <tr key={webhook.id}>
                    <th scope="row">
                      <a href={`/console/settings/webhooks/${webhook.id}`}>{webhook.url}</a>
                    </th>
                    <td>
                      {webhook.enabled ? (
                        <span class="badge badge-ok">enabled</span>
                      ) : (
                        <span class="badge">disabled</span>
                      )}
                    </td>
                    <td>{webhook.events.length}</td>
                    <td class="nowrap">
                      <OutcomeBadge status={webhook.lastDeliveryStatus} /> {formatTime(webhook.lastDeliveryAt, "")}
                    </td>
                    <td>{webhook.lastResponseStatus ?? "—"}</td>
                    <td>{webhook.failureCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Section>
      {may("POST /api/org/webhooks") ? (
        <Section title="Add a webhook">
          <CreateWebhook
            onCreated={(webhook) => {
              setCreated(webhook)
              webhooks.reload()
            }}
          />
        </Section>
      ) : null}
    </Page>
  )
}
