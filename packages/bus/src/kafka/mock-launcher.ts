import { type ChildProcess, execFile, spawn } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

export interface TopicSpec {
  readonly name: string
  readonly partitions: number
}

const mockDir = fileURLToPath(new URL("../../../../test/kafka-mock/", import.meta.url))
const binary = `${mockDir}build/kafka-mock`
const source = `${mockDir}kafka-mock.c`

/** Compiles the launcher unless a build newer than its source exists (the build is cached). */
const ensureBuilt = async (): Promise<void> => {
  if (existsSync(binary) && statSync(binary).mtimeMs >= statSync(source).mtimeMs) return
  try {
    await promisify(execFile)("sh", [`${mockDir}build.sh`], { timeout: 60_000 })
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error)
    throw new Error(
      `Kafka test broker: cannot build the librdkafka mock launcher (needs a C compiler and Debian's librdkafka-dev): ${stderr.trim()}`,
    )
  }
}

export interface MockCluster {
  readonly bootstrap: string
  createTopics(topics: ReadonlyArray<TopicSpec>): Promise<void>
  /** Makes the next `count` requests of a Kafka API (by key) fail with `errorCode`. */
  failRequests(apiKey: number, errorCode: number, count: number): Promise<void>
  stop(): Promise<void>
}

/**
 * Starts librdkafka's mock cluster in a child process. It reads topic commands on stdin and exits
 * when stdin closes, so it dies with the test process even if `stop()` is never reached.
 */
export const startMockCluster = async (topics: ReadonlyArray<TopicSpec> = []): Promise<MockCluster> => {
  await ensureBuilt()
  const child: ChildProcess = spawn(
    binary,
    topics.map((t) => `${t.name}:${t.partitions}`),
    { stdio: ["pipe", "pipe", "pipe"] },
  )
  let stderr = ""
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const waiting = new Map<string, { resolve: () => void; reject: (e: Error) => void }>()
  let onBootstrap: ((address: string) => void) | undefined
  const lines = createInterface({ input: child.stdout! })
  lines.on("line", (line) => {
    const [word, name = "", ...rest] = line.split(" ")
    if (word === "bootstrap") onBootstrap?.(name)
    const waiter = waiting.get(name)
    if (waiter === undefined) return
    waiting.delete(name)
    if (word === "ok") waiter.resolve()
    else waiter.reject(new Error(`Kafka mock refused topic ${name}: ${rest.join(" ")}`))
  })
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
  const bootstrap = await Promise.race([
    new Promise<string>((resolve) => {
      onBootstrap = resolve
    }),
    exited.then((code) => {
      throw new Error(`Kafka mock launcher exited (${code}) before listening: ${stderr.trim()}`)
    }),
  ])
  exited.then(() => {
    for (const waiter of waiting.values()) waiter.reject(new Error("Kafka mock launcher exited"))
    waiting.clear()
  })

  return {
    bootstrap,
    createTopics: (specs) =>
      Promise.all(
        specs.map(
          (spec) =>
            new Promise<void>((resolve, reject) => {
              waiting.set(spec.name, { resolve, reject })
              child.stdin?.write(`topic ${spec.name} ${spec.partitions}\n`)
            }),
        ),
      ).then(() => undefined),
    failRequests: (apiKey, errorCode, count) =>
      new Promise<void>((resolve, reject) => {
        waiting.set("fail", { resolve, reject })
        child.stdin?.write(`fail ${apiKey} ${errorCode} ${count}\n`)
      }),
    stop: async () => {
      child.stdin?.end()
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
      await exited
      clearTimeout(timer)
    },
  }
}
