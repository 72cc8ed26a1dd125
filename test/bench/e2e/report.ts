/** What one round measured, and the min/median/max summary of the rounds. */

export interface Figures {
  readonly messagesPerSecond: number
  readonly requestP50Ms: number
  readonly requestP99Ms: number
  /** From the webhook's 200 (accepted) to the message's arrival at the receiver. */
  readonly deliveryP50Ms: number
  readonly deliveryP99Ms: number
  /** CPU of every process on the path (Parley: Node and PostgreSQL), per message. */
  readonly cpuUsPerMessage: number
}

/** A durable system under load (Parley, the durable baseline): figures, its CPU split, its writes. */
export interface Loaded {
  /** Largest seen during the two loaded runs. */
  readonly loaded: { readonly nodeRssMb: number; readonly postgresPssMb: number }
  readonly closed: Figures & {
    readonly nodeCpuUsPerMessage: number
    readonly postgresCpuUsPerMessage: number
    /** Committed transactions (read-only included), transactions that wrote, WAL bytes: per message. */
    readonly commitsPerMessage: number
    readonly writingTransactionsPerMessage: number
    readonly walBytesPerMessage: number
  }
  readonly atRate: Figures
}

export interface Round {
  readonly parley: Loaded & {
    readonly freshStartMs: number
    readonly existingStartMs: number
    readonly idle: {
      readonly nodeCpuPercent: number
      readonly postgresCpuPercent: number
      readonly nodeRssMb: number
      readonly postgresPssMb: number
    }
  }
  readonly durable: Loaded
  readonly relay: { readonly closed: Figures; readonly atRate: Figures }
  /** One-minute load average before and after the round. */
  readonly loadAverage: readonly [number, number]
}

const spread = (values: ReadonlyArray<number>, digits: number): string => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (i: number) => (sorted[i] as number).toFixed(digits)
  return `${at(0)} / ${at(Math.floor(sorted.length / 2))} / ${at(sorted.length - 1)}`
}

const peakOf = (system: Loaded) => system.loaded.nodeRssMb + system.loaded.postgresPssMb

export const printSummary = (
  rounds: ReadonlyArray<Round>,
  run: { readonly messages: number; readonly senders: number; readonly rate: number },
): void => {
  const row = (name: string, pick: (round: Round) => number, digits = 0, target = "") =>
    console.log(`| ${name} | ${spread(rounds.map(pick), digits)} | ${target} |`)
  console.log(`\n${rounds.length} rounds, min / median / max\n`)
  console.log("| figure | min / median / max | target |")
  console.log("|---|---|---|")
  row("fresh start to ready, ms", (r) => r.parley.freshStartMs, 0, "≤ 4000")
  row("existing data dir start to ready, ms", (r) => r.parley.existingStartMs)
  row(
    "idle CPU, % of a core (Node + PostgreSQL)",
    (r) => r.parley.idle.nodeCpuPercent + r.parley.idle.postgresCpuPercent,
    2,
    "≤ 1",
  )
  row("  of which Node", (r) => r.parley.idle.nodeCpuPercent, 2)
  row("idle RSS, MB: Node", (r) => r.parley.idle.nodeRssMb, 0, "≤ 250")
  row("idle PSS, MB: PostgreSQL", (r) => r.parley.idle.postgresPssMb)
  row("loaded peak RSS, MB: Node", (r) => r.parley.loaded.nodeRssMb, 0, "≤ 350")
  row("loaded peak PSS, MB: PostgreSQL", (r) => r.parley.loaded.postgresPssMb)
  row("loaded peak RSS + PSS, MB: Parley (Node + PostgreSQL)", (r) => peakOf(r.parley), 0, "≤ 400")
  row("loaded peak RSS + PSS, MB: durable baseline", (r) => peakOf(r.durable))
  row(`Parley messages/s (${run.senders} senders)`, (r) => r.parley.closed.messagesPerSecond)
  row("durable baseline messages/s", (r) => r.durable.closed.messagesPerSecond)
  row("relay messages/s", (r) => r.relay.closed.messagesPerSecond)
  row(
    "Parley / durable baseline",
    (r) => r.parley.closed.messagesPerSecond / r.durable.closed.messagesPerSecond,
    2,
    "≥ 0.5",
  )
  row("Parley / relay", (r) => r.parley.closed.messagesPerSecond / r.relay.closed.messagesPerSecond, 2)
  row("Parley ingress request p50 / p99, ms", (r) => r.parley.closed.requestP50Ms, 1)
  row("", (r) => r.parley.closed.requestP99Ms, 1)
  row("durable baseline request p50 / p99, ms", (r) => r.durable.closed.requestP50Ms, 1)
  row("", (r) => r.durable.closed.requestP99Ms, 1)
  row("Parley accept→delivery p50 / p99, ms (flat out)", (r) => r.parley.closed.deliveryP50Ms, 1)
  row("", (r) => r.parley.closed.deliveryP99Ms, 1)
  row(`Parley accept→delivery p50 / p99, ms (at ${run.rate}/s)`, (r) => r.parley.atRate.deliveryP50Ms, 1)
  row("", (r) => r.parley.atRate.deliveryP99Ms, 1, "p99 ≤ 100")
  row(`durable accept→delivery p50 / p99, ms (at ${run.rate}/s)`, (r) => r.durable.atRate.deliveryP50Ms, 1)
  row("", (r) => r.durable.atRate.deliveryP99Ms, 1)
  row(`relay accept→delivery p50 / p99, ms (at ${run.rate}/s)`, (r) => r.relay.atRate.deliveryP50Ms, 1)
  row("", (r) => r.relay.atRate.deliveryP99Ms, 1)
  const systems = [
    ["Parley", (r: Round) => r.parley],
    ["durable", (r: Round) => r.durable],
  ] as const
  for (const [name, of] of systems) {
    row(`${name} CPU per message, µs (Node + PostgreSQL)`, (r) => of(r).closed.cpuUsPerMessage)
    row("  of which Node", (r) => of(r).closed.nodeCpuUsPerMessage)
    row("  of which PostgreSQL", (r) => of(r).closed.postgresCpuUsPerMessage)
  }
  row(
    "Parley / durable CPU per message",
    (r) => r.parley.closed.cpuUsPerMessage / r.durable.closed.cpuUsPerMessage,
    2,
    "≤ 3",
  )
  row("relay CPU per message, µs", (r) => r.relay.closed.cpuUsPerMessage)
  for (const [name, of] of systems) {
    row(`${name} writing transactions per message`, (r) => of(r).closed.writingTransactionsPerMessage, 2)
    row(`${name} commits per message (read-only included)`, (r) => of(r).closed.commitsPerMessage, 2)
    row(`${name} WAL bytes per message`, (r) => of(r).closed.walBytesPerMessage)
  }
  row("load average (1 min) before a round", (r) => r.loadAverage[0], 2)
  row("load average (1 min) after a round", (r) => r.loadAverage[1], 2)
}
