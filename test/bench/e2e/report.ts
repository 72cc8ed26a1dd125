/** What one round measured, and the min/median/max summary of the rounds. */

export interface Figures {
  readonly messagesPerSecond: number
  /** Until the last webhook and the last reply were both out (the work the CPU figures count). */
  readonly repliedPerSecond: number
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
    /** Sends the provider's API took (the replies), per message, counted until 3 s without one. */
    readonly repliesPerMessage: number
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
  /** Parley at BENCH_PARLEY_BEFORE's revision, same round (its start and idle figures are not kept). */
  readonly parleyBefore?: Loaded | undefined
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
  run: {
    readonly messages: number
    readonly senders: number
    readonly rate: number
    /** The revision of `parleyBefore`, if run. */
    readonly before?: string | undefined
  },
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
  const systems: Array<readonly [string, (round: Round) => Loaded]> = [["Parley", (r) => r.parley]]
  if (rounds.every((r) => r.parleyBefore !== undefined))
    systems.push([`Parley before (${run.before})`, (r) => r.parleyBefore as Loaded])
  systems.push(["durable baseline", (r) => r.durable])
  const vsDurable = (name: string) => (name === "durable baseline" ? "" : "Parley")
  for (const [name, of] of systems) {
    console.log(`| **${name}** | | |`)
    row("messages/s, flat out", (r) => of(r).closed.messagesPerSecond)
    if (vsDurable(name))
      row(
        "  / durable baseline's",
        (r) => of(r).closed.messagesPerSecond / r.durable.closed.messagesPerSecond,
        2,
        "≥ 0.5",
      )
    row("messages/s, flat out, webhook and reply both out", (r) => of(r).closed.repliedPerSecond)
    if (vsDurable(name))
      row("  / durable baseline's", (r) => of(r).closed.repliedPerSecond / r.durable.closed.repliedPerSecond, 2)
    row("ingress request p50 / p99, ms", (r) => of(r).closed.requestP50Ms, 1)
    row("", (r) => of(r).closed.requestP99Ms, 1)
    row("accept→delivery p50 / p99, ms (flat out)", (r) => of(r).closed.deliveryP50Ms, 1)
    row("", (r) => of(r).closed.deliveryP99Ms, 1)
    row(`accept→delivery p50 / p99, ms (at ${run.rate}/s)`, (r) => of(r).atRate.deliveryP50Ms, 1)
    row("", (r) => of(r).atRate.deliveryP99Ms, 1, vsDurable(name) && "p99 ≤ 100")
    row("CPU per message, µs (Node + PostgreSQL)", (r) => of(r).closed.cpuUsPerMessage)
    row("  of which Node", (r) => of(r).closed.nodeCpuUsPerMessage)
    row("  of which PostgreSQL", (r) => of(r).closed.postgresCpuUsPerMessage)
    if (vsDurable(name))
      row("  / durable baseline's", (r) => of(r).closed.cpuUsPerMessage / r.durable.closed.cpuUsPerMessage, 2, "≤ 3")
    row(
      "writing transactions per message",
      (r) => of(r).closed.writingTransactionsPerMessage,
      2,
      vsDurable(name) && "≤ 1",
    )
    row("commits per message (read-only included)", (r) => of(r).closed.commitsPerMessage, 2)
    row("WAL bytes per message", (r) => of(r).closed.walBytesPerMessage)
    row("replies sent per message", (r) => of(r).closed.repliesPerMessage, 2)
    row("peak memory, MB (Node RSS + PostgreSQL PSS)", (r) => peakOf(of(r)), 0, vsDurable(name) && "≤ 400")
  }
  console.log("| **relay** | | |")
  row("messages/s, flat out", (r) => r.relay.closed.messagesPerSecond)
  row(`accept→delivery p50 / p99, ms (at ${run.rate}/s)`, (r) => r.relay.atRate.deliveryP50Ms, 1)
  row("", (r) => r.relay.atRate.deliveryP99Ms, 1)
  row("CPU per message, µs", (r) => r.relay.closed.cpuUsPerMessage)
  row("load average (1 min) before a round", (r) => r.loadAverage[0], 2)
  row("load average (1 min) after a round", (r) => r.loadAverage[1], 2)
}
