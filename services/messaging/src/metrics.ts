import type { ServiceMetrics } from "@parley/platform"
import { Context, Layer } from "effect"

/** The service's own counters and histograms, on the registry `/metrics` serves. */
export class MessagingMetrics extends Context.Service<MessagingMetrics, ReturnType<typeof instrumentsOf>>()(
  "@parley/messaging/MessagingMetrics",
) {
  /** The instruments, registered once on the service's registry. */
  static readonly layer = (metrics: ServiceMetrics) =>
    Layer.sync(MessagingMetrics, () => MessagingMetrics.of(instrumentsOf(metrics)))
}

const instrumentsOf = (metrics: ServiceMetrics) => ({
  inbound: metrics.counter({
    name: "parley_messaging_inbound_messages_total",
    help: "Customer messages accepted (new, not redeliveries), by channel",
    labelNames: ["channel"],
  }),
  statuses: metrics.counter({
    name: "parley_messaging_statuses_total",
    help: "Provider status reports that fired message.status, by channel",
    labelNames: ["channel"],
  }),
  cloudIngressBatch: metrics.histogram({
    name: "parley_messaging_cloud_ingress_batch_payloads",
    help: "Provider webhook payloads per ingress transaction (group commit), by outcome (committed, rolled_back)",
    labelNames: ["outcome"],
    buckets: [1, 2, 4, 8, 16, 32, 64, 100],
  }),
  providerCalls: metrics.counter({
    name: "parley_messaging_provider_calls_total",
    help: "Outbound sends by channel and outcome (accepted, rejected, rate_limited, unavailable)",
    labelNames: ["channel", "outcome"],
  }),
  campaignRecipients: metrics.counter({
    name: "parley_messaging_campaign_recipients_total",
    help: "Campaign recipients finished, by outcome (sent, failed), and put back after a throughput refusal (throttled)",
    labelNames: ["outcome"],
  }),
})

export const outcomeLabel = (tag: "Accepted" | "Rejected" | "RateLimited" | "Unavailable"): string =>
  tag === "Accepted"
    ? "accepted"
    : tag === "Rejected"
      ? "rejected"
      : tag === "RateLimited"
        ? "rate_limited"
        : "unavailable"
