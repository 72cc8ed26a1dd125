/**
 * A webhook's delivery log (§5): every attempt, newest first, filtered by outcome and paged, each
 * with its response, error and duration, marked when it is a test, a redelivery or a replay, and
 * its request and response in full on demand; an administrator can redeliver one. After a redelivery
 * (or a test event) the log is read again every second until that delivery shows, for at most 20 s.
 */
import { useEffect, useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { SelectField } from "../../ui/fields.tsx"
import { formatTimePrecise } from "../../ui/format.ts"
import { useAction, useInterval, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { Section, TableScroll } from "../../ui/page.tsx"
import { Pager, usePaging } from "../../ui/pager.tsx"
import { AttemptExchangeButton } from "./attempt-exchange.tsx"
import { OutcomeBadge } from "./health.tsx"
import { reasonBadge } from "./reason.ts"

type Attempt = Answer<"/api/org/webhooks/{id}/deliveries", "get">["data"][number]

const WATCH_MS = 20_000

/** A delivery the log waits for (a test event, a redelivery), with when to stop waiting. */
export interface Awaited {
  readonly deliveryId: string
  readonly until: number
}

export const DeliveryLog = ({
  webhookId,
  awaited,
  onAwait,
  onChange,
}: {
  webhookId: string
  awaited: Awaited | undefined
  onAwait: (deliveryId: string) => void
  /** Called when the log shows something new (so the webhook's health is read again). */
  onChange: () => void
}) => {
  const [status, setStatus] = useState<"" | "success" | "failed">("")
  const paging = usePaging()
  const log = useLoad(
    () =>
      unwrap(
        api.GET("/api/org/webhooks/{id}/deliveries", {
          params: {
            path: { id: webhookId },
            query: {
              limit: "25",
              ...(paging.cursor === undefined ? {} : { cursor: paging.cursor }),
              ...(status === "" ? {} : { status }),
            },
          },
        }),
      ),
    [webhookId, status, paging.cursor],
  )
  const redeliver = useAction()
  const [queued, setQueued] = useState<string | undefined>(undefined)
  const attempts = log.data?.data ?? []
  const arrived = awaited !== undefined && attempts.some((a) => a.deliveryId === awaited.deliveryId)
  const watching = awaited !== undefined && !arrived && Date.now() < awaited.until && paging.page === 1
  useInterval(log.reload, 1000, watching)
  // The awaited attempt is in the log: the webhook's health changed with it.
  useEffect(() => {
    if (arrived) onChange()
  }, [arrived])

  const onRedeliver = async (attempt: Attempt) => {
    setQueued(undefined)
    const answer = await redeliver.run(() =>
      unwrap(
        api.POST("/api/org/webhooks/{id}/deliveries/{deliveryId}/redeliver", {
          params: { path: { id: webhookId, deliveryId: attempt.deliveryId } },
        }),
      ),
    )
    if (answer === undefined) return
    setQueued(`Redelivery of ${attempt.event} queued as ${answer.deliveryId}.`)
    paging.reset()
    onAwait(answer.deliveryId)
  }

  return (
    <Section
      title="Delivery log"
      actions={
        <button
          type="button"
          class="secondary"
          onClick={() => {
            log.reload()
            onChange()
          }}
          disabled={log.loading}
        >
          Refresh
        </button>
      }
    >
      <div class="row">
        <SelectField
          label="Show"
          value={status}
          onValue={(value) => {
            setStatus(value as typeof status)
            paging.reset()
          }}
          options={[
            { value: "", label: "All attempts" },
            { value: "success", label: "Successful attempts" },
            { value: "failed", label: "Failed attempts" },
          ]}
        />
      </div>
      {queued === undefined ? null : <StatusNotice>{queued}</StatusNotice>}
      {watching ? (
        <p class="muted" role="status">
          Waiting for the delivery to be attempted…
        </p>
      ) : null}
      <ErrorNotice error={redeliver.error} title="Not redelivered." />
      <ErrorNotice error={log.error} />
      {log.data === undefined && log.loading ? (
        <Loading what="deliveries" />
      ) : attempts.length === 0 ? (
        <EmptyState title={status === "" ? "No deliveries yet." : `No ${status} attempts.`}>
          Events this webhook subscribes to are delivered as they happen; send a test event to try your receiver now.
        </EmptyState>
      ) : (
        <TableScroll label="Delivery attempts">
          {/* On a phone each attempt is a card, each value under its column's name (`cards`). */}
          <table class="cards">
            <thead>
              <tr>
                <th scope="col">Attempted</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Outcome</th>
                <th scope="col">Response</th>
                <th scope="col">Error</th>
                <th scope="col">Duration</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((attempt) => (
                <tr key={`${attempt.deliveryId}:${attempt.attempt}`}>
                  <td class="nowrap" data-label="Attempted">
                    {formatTimePrecise(attempt.attemptedAt)}
                  </td>
                  <td data-label="Event">
                    <code class="token">{attempt.event}</code>
                    {reasonBadge(attempt.reason, attempt.test) === undefined ? null : (
                      <>
                        {" "}
                        <span class="badge">{reasonBadge(attempt.reason, attempt.test)}</span>
                      </>
                    )}
                  </td>
                  <td data-label="Attempt">{attempt.attempt} of 3</td>
                  <td data-label="Outcome">
                    <OutcomeBadge status={attempt.status} />
                  </td>
                  <td data-label="Response">{attempt.responseStatus ?? "—"}</td>
                  <td data-label="Error">{attempt.error ?? "—"}</td>
                  <td class="nowrap" data-label="Duration">
                    {attempt.durationMs} ms
                  </td>
                  <td data-label="Details">
                    {/* The ids, the request and the response open in a dialog: a cell is too narrow for them. */}
                    <span class="actions-inline">
                      {may("GET /api/org/webhooks/{id}/deliveries/{deliveryId}/attempts/{attempt}") ? (
                        <AttemptExchangeButton
                          webhookId={webhookId}
                          deliveryId={attempt.deliveryId}
                          eventId={attempt.eventId}
                          attempt={attempt.attempt}
                          event={attempt.event}
                        />
                      ) : null}
                      {may("POST /api/org/webhooks/{id}/deliveries/{deliveryId}/redeliver") ? (
                        <button
                          type="button"
                          class="secondary"
                          aria-label={`Redeliver ${attempt.event} (${attempt.deliveryId})`}
                          disabled={redeliver.pending}
                          onClick={() => onRedeliver(attempt)}
                        >
                          Redeliver
                        </button>
                      ) : null}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager paging={paging} nextCursor={log.data?.nextCursor} label="Delivery log" />
    </Section>
  )
}

export const awaitDelivery = (deliveryId: string): Awaited => ({ deliveryId, until: Date.now() + WATCH_MS })
