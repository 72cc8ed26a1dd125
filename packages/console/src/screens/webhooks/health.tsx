/** A webhook's health as §5 records it: the last attempt's outcome and status, and failures so far. */
import type { Answer } from "../../api/client.ts"
import { formatTime } from "../../ui/format.ts"

export type Webhook = Answer<"/api/org/webhooks/{id}", "get">

export const OutcomeBadge = ({ status }: { status: "success" | "failed" | null }) =>
  status === null ? (
    <span class="badge">no delivery yet</span>
  ) : status === "success" ? (
    <span class="badge badge-ok">success</span>
  ) : (
    <span class="badge badge-bad">failed</span>
  )

export const Health = ({ webhook }: { webhook: Webhook }) => (
  <dl class="facts">
    <dt>Last delivery</dt>
    <dd>
      <OutcomeBadge status={webhook.lastDeliveryStatus} /> {formatTime(webhook.lastDeliveryAt, "")}
    </dd>
    <dt>Last response</dt>
    <dd>
      {webhook.lastResponseStatus === null
        ? "none (timeout, connection error or no attempt)"
        : webhook.lastResponseStatus}
    </dd>
    <dt>Failed attempts</dt>
    <dd>{webhook.failureCount}</dd>
  </dl>
)
