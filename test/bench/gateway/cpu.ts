/**
 * CPU time a process spent (user + system), from /proc: the benchmark's noise-robust figure. On a
 * shared machine throughput swings with the neighbours' load, but the CPU a server spends per
 * request does not.
 */
import { readFileSync } from "node:fs"

const TICKS_PER_SECOND = 100

/** CPU seconds used so far by `pid`, or `undefined` where /proc is not available. */
export const cpuSeconds = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // Fields after the command name (which may contain spaces) start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
  } catch {
    return undefined
  }
}
