import type { IHeaders, KafkaMessage } from "kafkajs"
import type { BusRecord } from "../Bus.ts"

const headerText = (value: IHeaders[string]): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value
  return first === undefined ? undefined : first.toString()
}

/** A kafkajs message as the port's record: text key, value and headers (first value of a repeated header). */
export const toRecord = (topic: string, partition: number, m: KafkaMessage): BusRecord => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(m.headers ?? {})) {
    const text = headerText(value)
    if (text !== undefined) headers[name] = text
  }
  return {
    topic,
    partition,
    offset: BigInt(m.offset),
    key: m.key?.toString() ?? "",
    value: m.value?.toString() ?? "",
    headers,
    timestamp: new Date(Number(m.timestamp)),
  }
}
