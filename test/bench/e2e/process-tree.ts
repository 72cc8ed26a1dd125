/**
 * CPU and memory of Parley as the machine sees it: its Node process plus the embedded PostgreSQL
 * server's processes (the postmaster and every child: backends, WAL writer, checkpointer…), from
 * /proc. Linux only, like the other benchmarks' CPU figures.
 */
import { readdirSync, readFileSync } from "node:fs"

const TICKS_PER_SECOND = 100

const statFields = (pid: number): Array<string> | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return undefined
  }
}

/** The postmaster's live children (its backends and auxiliary processes). */
const childrenOf = (parent: number): Array<number> =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => Number(statFields(pid)?.[1]) === parent)

/** User + system CPU seconds of `pid`; with `reaped`, also of its children that have exited. */
const cpuOf = (pid: number, reaped: boolean): number => {
  const fields = statFields(pid)
  if (fields === undefined) return 0
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]))
  return ((utime ?? 0) + (stime ?? 0) + (reaped ? (cutime ?? 0) + (cstime ?? 0) : 0)) / TICKS_PER_SECOND
}

const statusKb = (pid: number, field: string): number => {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return Number(match?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** Proportional set size: shared pages (PostgreSQL's shared buffers) split among their users. */
const pssKb = (pid: number): number => {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0)
  } catch {
    return 0
  }
}

export interface ParleyProcesses {
  readonly node: number
  readonly postmaster: number | undefined
}

export interface Usage {
  /** CPU seconds so far: Node's, PostgreSQL's (every process, exited ones included). */
  readonly nodeCpu: number
  readonly postgresCpu: number
}

export const usage = ({ node, postmaster }: ParleyProcesses): Usage => ({
  nodeCpu: cpuOf(node, false),
  postgresCpu:
    postmaster === undefined
      ? 0
      : cpuOf(postmaster, true) + childrenOf(postmaster).reduce((sum, pid) => sum + cpuOf(pid, false), 0),
})

export interface Memory {
  /** Node's resident set now and at its peak (VmHWM), MB. */
  readonly nodeRssMb: number
  readonly nodePeakRssMb: number
  /** PostgreSQL's processes' proportional set sizes summed, MB. */
  readonly postgresPssMb: number
}

export const memory = ({ node, postmaster }: ParleyProcesses): Memory => ({
  nodeRssMb: statusKb(node, "VmRSS") / 1024,
  nodePeakRssMb: statusKb(node, "VmHWM") / 1024,
  postgresPssMb:
    postmaster === undefined
      ? 0
      : [postmaster, ...childrenOf(postmaster)].reduce((sum, pid) => sum + pssKb(pid), 0) / 1024,
})

/** Samples memory every `everyMs` until stopped; answers the largest Node RSS and PostgreSQL PSS seen. */
export const sampleMemory = (processes: ParleyProcesses, everyMs = 250) => {
  let peakNode = 0
  let peakPostgres = 0
  const sample = () => {
    const now = memory(processes)
    peakNode = Math.max(peakNode, now.nodeRssMb)
    peakPostgres = Math.max(peakPostgres, now.postgresPssMb)
  }
  sample()
  const timer = setInterval(sample, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      sample()
      return { nodeRssMb: peakNode, postgresPssMb: peakPostgres }
    },
  }
}
