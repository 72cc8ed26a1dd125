/**
 * One attempt in full, in a dialog opened from the delivery log: the request sent (its headers that
 * stay the same across signings, and the body exactly as sent) and the response received. It reads
 * `GET /api/org/webhooks/:id/deliveries/:deliveryId/attempts/:attempt` when opened, not before.
 */
import { useId, useRef, useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { formatNumber } from "../../ui/format.ts"
import { useLoad } from "../../ui/hooks.ts"
import { ErrorNotice, Loading } from "../../ui/notice.tsx"
import { reasonLabel } from "./reason.ts"

interface AttemptKey {
  readonly webhookId: string
  readonly deliveryId: string
  readonly eventId: string
  readonly attempt: number
  readonly event: string
}

/** The body as sent, laid out for reading when it is JSON (it was sent as one line). */
const readable = (body: string): string => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

const bytesOf = (text: string): number => new TextEncoder().encode(text).length

const Exchange = ({ webhookId, deliveryId, eventId, attempt }: AttemptKey) => {
  const detail = useLoad(
    () =>
      unwrap(
        api.GET("/api/org/webhooks/{id}/deliveries/{deliveryId}/attempts/{attempt}", {
          params: { path: { id: webhookId, deliveryId, attempt: String(attempt) as "1" | "2" | "3" } },
        }),
      ),
    [webhookId, deliveryId, attempt],
  )
  if (detail.error !== undefined) return <ErrorNotice error={detail.error} />
  const data = detail.data
  if (data === undefined) return <Loading what="the attempt" />
  const headers = Object.entries(data.request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n")
  return (
    <>
      <dl class="facts">
        <dt>Delivery</dt>
        <dd>
          <code class="token">{deliveryId}</code>
        </dd>
        <dt>Event id</dt>
        <dd>
          <code class="token">{eventId}</code>
        </dd>
      </dl>
      <h3>Request</h3>
      {data.reason === "event" ? null : <p class="muted">{reasonLabel(data.reason)}</p>}
      <p class="hint">
        Headers that stay the same on every signing. <code class="token">X-Service-Signature</code>,{" "}
        <code class="token">webhook-signature</code> and <code class="token">webhook-timestamp</code> are computed for
        each attempt and not kept; the secret is never shown.
      </p>
      <figure>
        <figcaption>Request headers</figcaption>
        <pre>{headers}</pre>
      </figure>
      {data.request.body === null ? (
        <p class="muted">The body is no longer kept (deliveries are kept 30 days).</p>
      ) : (
        <figure>
          <figcaption>Request body</figcaption>
          <p class="hint">
            {formatNumber(bytesOf(data.request.body))} bytes, sent as one line; laid out here for reading.
          </p>
          <pre>{readable(data.request.body)}</pre>
        </figure>
      )}
      <h3>Response</h3>
      <p>
        {data.response.status === null
          ? `No response: ${data.error ?? "none received"}.`
          : `HTTP ${data.response.status}${data.error !== null && data.error !== `HTTP ${data.response.status}` ? ` (${data.error})` : ""}`}
      </p>
      {data.response.body !== null ? (
        <figure>
          <figcaption>Response body</figcaption>
          <pre>{data.response.body}</pre>
        </figure>
      ) : data.response.status !== null && data.response.status >= 200 && data.response.status < 300 ? (
        <p class="hint">A successful answer's body is not read.</p>
      ) : data.response.status !== null ? (
        <p class="hint">The answer had no body.</p>
      ) : null}
    </>
  )
}

/** The button that opens an attempt in full: its ids, the request sent and the response received. */
export const AttemptExchangeButton = (props: AttemptKey) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const id = useId()
  const [open, setOpen] = useState(false)
  return (
    <>
      <button
        type="button"
        class="secondary"
        onClick={() => {
          setOpen(true)
          dialog.current?.showModal()
        }}
      >
        Details{" "}
        <span class="visually-hidden">
          of attempt {props.attempt} of {props.event}
        </span>
      </button>
      <dialog ref={dialog} class="wide" aria-labelledby={`${id}-title`} onClose={() => setOpen(false)}>
        <h2 id={`${id}-title`}>
          Attempt {props.attempt} of <code class="token">{props.event}</code>
        </h2>
        {open ? <Exchange {...props} /> : null}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </div>
      </dialog>
    </>
  )
}
