/**
 * Sends a test event (§5): one delivery of the chosen event's catalogue sample to this webhook
 * only, subscribed to it or not, enabled or not, marked `X-Service-Test: true`. The sample is shown
 * as the receiver will get it in `data`; the delivery log then waits for the attempt.
 */
import { useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { SelectField } from "../../ui/fields.tsx"
import { useAction } from "../../ui/hooks.ts"
import { ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import type { Catalogue } from "./events-field.tsx"

export const TestEvent = ({
  webhookId,
  catalogue,
  onSent,
}: {
  webhookId: string
  catalogue: Catalogue
  onSent: (deliveryId: string) => void
}) => {
  const events = catalogue.data?.data ?? []
  const [event, setEvent] = useState<string | undefined>(undefined)
  const [queued, setQueued] = useState<string | undefined>(undefined)
  const action = useAction()
  const chosen = events.find((e) => e.name === event) ?? events[0]
  if (catalogue.error !== undefined)
    return <ErrorNotice error={catalogue.error} title="The event catalogue did not load." />
  if (chosen === undefined) return <Loading what="the event catalogue" />
  const send = async (submitted: Event) => {
    submitted.preventDefault()
    setQueued(undefined)
    const answer = await action.run(() =>
      unwrap(
        api.POST("/api/org/webhooks/{id}/test", {
          params: { path: { id: webhookId } },
          body: { event: chosen.name },
        }),
      ),
    )
    if (answer === undefined) return
    setQueued(`Test ${chosen.name} queued as ${answer.deliveryId}; its attempt shows in the delivery log below.`)
    onSent(answer.deliveryId)
  }
  return (
    <form onSubmit={send} noValidate>
      <ErrorNotice error={action.error} title="Not sent." />
      {queued === undefined ? null : <StatusNotice>{queued}</StatusNotice>}
      <SelectField
        label="Event"
        value={chosen.name}
        onValue={setEvent}
        options={events.map((e) => ({ value: e.name, label: e.name }))}
        hint={chosen.description}
      />
      <details>
        <summary>The sample data it sends</summary>
        <pre>
          <code>{JSON.stringify(chosen.sample, null, 2)}</code>
        </pre>
      </details>
      <button type="submit" class="secondary" disabled={action.pending}>
        {action.pending ? "Sending…" : "Send test event"}
      </button>
    </form>
  )
}
