/** Child processes of the benchmark: started with the source condition, stopped on exit. */
import { type ChildProcess, fork } from "node:child_process"

export { freePort } from "@parley/platform/testing"

const children: Array<ChildProcess> = []

export const startProcess = (
  module: URL,
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  /** Where the child's standard output goes (its log lines): a file descriptor, or this process's. */
  stdout: number | "inherit" = "inherit",
): ChildProcess => {
  const child = fork(module, [...args], {
    execArgv: ["--conditions=source", "--no-warnings", ...(env.BENCH_EXEC_ARGV?.split(" ") ?? [])],
    env: { ...process.env, ...env },
    stdio: ["ignore", stdout, "inherit", "ipc"],
  })
  children.push(child)
  return child
}

/** Polls `url` until it answers 200 (a service's `/health/live`). */
export const waitUntilLive = async (url: string, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      if (response.status === 200) return
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export const stopAll = async (): Promise<void> => {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          child.once("exit", () => resolve())
          child.kill("SIGTERM")
          setTimeout(() => child.kill("SIGKILL"), 3_000).unref()
        }),
    ),
  )
}

process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL")
})
