import { freePort } from "@parley/platform/testing"
import { Kafka, logLevel } from "kafkajs"
import { startMockCluster, type TopicSpec } from "./mock-launcher.ts"

export type { TopicSpec } from "./mock-launcher.ts"

export interface KafkaTestBrokers {
  readonly brokers: string[]
  /** Which broker the tests run against: `env` (KAFKA_BROKERS), `container`, or `mock`. */
  readonly kind: "env" | "container" | "mock"
  /**
   * Whether the broker supports kafkajs's idempotent producer. librdkafka 2.0's mock cluster
   * reports controller id 0 while its only broker is id 1, and kafkajs sends InitProducerId to the
   * controller, so an idempotent producer cannot connect to the mock.
   */
  readonly idempotent: boolean
  createTopics(topics: ReadonlyArray<TopicSpec>): Promise<void>
  /** Only on the mock: the next `count` requests of a Kafka API (by key) fail with `errorCode`. */
  failRequests?: (apiKey: number, errorCode: number, count: number) => Promise<void>
  stop(): Promise<void>
}

const runtimeMissing = "Could not find a working container runtime strategy"

const createWithAdmin = async (brokers: string[], topics: ReadonlyArray<TopicSpec>) => {
  const admin = new Kafka({ clientId: "parley-test-admin", brokers, logLevel: logLevel.ERROR }).admin()
  await admin.connect()
  try {
    // Existing topics are left as they are (createTopics answers false for them).
    await admin.createTopics({
      waitForLeaders: true,
      topics: topics.map((t) => ({ topic: t.name, numPartitions: t.partitions })),
    })
  } finally {
    await admin.disconnect()
  }
}

/** A single-node KRaft broker; the host port is fixed up front so the advertised listener matches. */
const startContainer = async (): Promise<KafkaTestBrokers | undefined> => {
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import("testcontainers")
  try {
    await getContainerRuntimeClient()
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes(runtimeMissing)) return undefined
    throw error
  }
  const port = await freePort()
  const container = await new GenericContainer("apache/kafka:3.9.1")
    .withExposedPorts({ container: 9092, host: port })
    .withEnvironment({
      KAFKA_NODE_ID: "1",
      KAFKA_PROCESS_ROLES: "broker,controller",
      KAFKA_LISTENERS: "PLAINTEXT://:9092,CONTROLLER://:9093",
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: "CONTROLLER",
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
      KAFKA_CONTROLLER_QUORUM_VOTERS: "1@localhost:9093",
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: "1",
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: "1",
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: "1",
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: "0",
      // Tests use short sessions so rebalances are quick; the default minimum is 6 s.
      KAFKA_GROUP_MIN_SESSION_TIMEOUT_MS: "1000",
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: "false",
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start()
  const brokers = [`127.0.0.1:${port}`]
  return {
    brokers,
    kind: "container",
    idempotent: true,
    createTopics: (topics) => createWithAdmin(brokers, topics),
    stop: async () => {
      await container.stop()
    },
  }
}

const startMock = async (): Promise<KafkaTestBrokers> => {
  const mock = await startMockCluster()
  return {
    brokers: [mock.bootstrap],
    kind: "mock",
    idempotent: false,
    createTopics: mock.createTopics,
    failRequests: mock.failRequests,
    stop: mock.stop,
  }
}

/**
 * A Kafka for tests: `KAFKA_BROKERS` when set, else a container when a Docker engine answers, else
 * librdkafka's mock cluster (test/kafka-mock). When none is possible this rejects with the reason,
 * so the test run fails loudly instead of skipping.
 */
export const kafkaTestBrokers = async (): Promise<KafkaTestBrokers> => {
  const fromEnv = process.env.KAFKA_BROKERS?.trim()
  if (fromEnv) {
    const brokers = fromEnv
      .split(",")
      .map((b) => b.trim())
      .filter((b) => b !== "")
    return {
      brokers,
      kind: "env",
      idempotent: process.env.KAFKA_IDEMPOTENT !== "false",
      createTopics: (topics) => createWithAdmin(brokers, topics),
      stop: async () => {},
    }
  }
  const reasons: string[] = []
  try {
    const container = await startContainer()
    if (container) return container
    reasons.push("no container runtime")
  } catch (error) {
    reasons.push(`container: ${String((error as Error)?.message ?? error)}`)
  }
  try {
    return await startMock()
  } catch (error) {
    reasons.push(`mock: ${String((error as Error)?.message ?? error)}`)
  }
  throw new Error(`No Kafka for tests (set KAFKA_BROKERS to use one): ${reasons.join("; ")}`)
}
