import { invalidFromIssue } from "@parley/platform"
import { Effect, Schema } from "effect"
import { CloudWebhookBody } from "../cloud/payload.ts"
import { MessagingMetrics } from "../metrics.ts"
import { readCloudChanges } from "./cloud-changes.ts"
import type { CloudIngress } from "./cloud-ingest.ts"

/**
 * A provider payload (already authenticated: the signature by the webhook route, or the sandbox,
 * which is Parley itself) decoded, read into its changes and committed through the ingress group
 * commit: the one path every provider notification takes, real or sandbox.
 */
export const acceptProviderPayload = (cloudIngress: CloudIngress["Service"], json: unknown, receivedAt: Date) =>
  Effect.gen(function* () {
    const payload = yield* Schema.decodeUnknownEffect(CloudWebhookBody)(json, { errors: "all" }).pipe(
      Effect.mapError((error) => invalidFromIssue("body", error.issue)),
    )
    const changes = yield* readCloudChanges(payload, receivedAt)
    const summary = yield* cloudIngress.submit(changes)
    const metrics = yield* MessagingMetrics
    metrics.inbound.inc({ channel: "cloud" }, summary.inbound)
    metrics.statuses.inc({ channel: "cloud" }, summary.statuses)
    yield* Effect.logDebug("cloud webhook accepted").pipe(Effect.annotateLogs({ ...summary }))
    return summary
  })
