import type { ServiceMetrics } from "@parley/platform"
import { Context, Effect, Layer } from "effect"

type Counter<L extends string> = ReturnType<ServiceMetrics["counter"]> & {
  inc(labels: Partial<Record<L, string>>): void
}

/**
 * The assistant's own counters, on the service's registry: turns by surface and by who answered
 * (a model fallback is what an operator watches when the model endpoint degrades), and lead
 * recordings by outcome.
 */
export class AssistantMetrics extends Context.Service<
  AssistantMetrics,
  {
    readonly turns: Counter<"surface" | "engine">
    readonly leads: Counter<"outcome">
  }
>()("@parley/assistant/AssistantMetrics") {
  /** The instruments, registered once on the service's registry. */
  static readonly layer = (metrics: ServiceMetrics) =>
    Layer.sync(AssistantMetrics, () => AssistantMetrics.fromRegistry(metrics))

  static readonly fromRegistry = (metrics: ServiceMetrics) =>
    AssistantMetrics.of({
      turns: metrics.counter({
        name: "parley_assistant_turns_total",
        help: "Messages answered, by surface (widget, channel) and engine (deterministic, model, fallback)",
        labelNames: ["surface", "engine"],
      }),
      leads: metrics.counter({
        name: "parley_assistant_leads_total",
        help: "Lead recordings by outcome (created, updated, unchanged)",
        labelNames: ["outcome"],
      }),
    })
}

/** Counts when the service is present (tests that build pieces alone do without it). */
const count = (pick: (metrics: AssistantMetrics["Service"]) => void): Effect.Effect<void> =>
  Effect.map(Effect.serviceOption(AssistantMetrics), (found) => {
    if (found._tag === "Some") pick(found.value)
  })

export const countTurn = (surface: "widget" | "channel", engine: "deterministic" | "model" | "fallback") =>
  count((metrics) => metrics.turns.inc({ surface, engine }))

export const countLead = (outcome: "created" | "updated" | "unchanged" | "notOwn") =>
  count((metrics) => metrics.leads.inc({ outcome }))
