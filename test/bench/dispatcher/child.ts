import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { freePort } from "@parley/platform/testing"
import { nodeOptionsOf } from "../node-options.ts"
import { cpuMsOf } from "./proc.ts"

/** This tree's dispatcher; a benchmark may run another revision's (compare.ts). */
export const dispatcherMain = fileURLToPath(new URL("../../../services/dispatcher/src/main.ts", import.meta.url))

/** The flags the dispatcher is deployed with (services/dispatcher/node-options), then BENCH_NODE_ARGS. */
export const nodeArgs = (): Array<string> => nodeOptionsOf("dispatcher", process.env.BENCH_NODE_ARGS)

export interface DispatcherProcess {
  readonly child: ChildProcess
  /** Peak resident set size so far, in MB (VmHWM). */
  peakRssMb(): number
  /** CPU time (user + system) the process has used so far, in ms. */
  cpuMs(): number
  stop(): Promise<void>
}

/** One dispatcher, as deployed: its own process running services/dispatcher/src/main.ts. */
export const startDispatcherProcess = async (
  env: Record<string, string>,
  options: { readonly onSpawned?: (process: DispatcherProcess) => void; readonly main?: string } = {},
): Promise<DispatcherProcess> => {
  const port = await freePort()
  const child = spawn(process.execPath, [...nodeArgs(), "--conditions=source", options.main ?? dispatcherMain], {
    env: {
      PATH: process.env.PATH,
      PARLEY_DISPATCHER_PORT: String(port),
      PARLEY_LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const dispatcher: DispatcherProcess = {
    child,
    peakRssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8")
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
      return Math.round(kb / 1024)
    },
    cpuMs: () => cpuMsOf(child.pid ?? 0),
    stop: async () => {
      child.kill("SIGTERM")
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))])
      if (child.exitCode === null) child.kill("SIGKILL")
    },
  }
  options.onSpawned?.(dispatcher)
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health/ready`)
      if (response.ok) break
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL")
      throw new Error("dispatcher did not become ready")
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return dispatcher
}
