export {
  Bus,
  BusError,
  type BusRecord,
  OutboxWriter,
  type OutgoingRecord,
  type SubscribeOptions,
  type Subscription,
} from "./Bus.ts"
export { BusLive, type BusLiveOptions } from "./BusLive.ts"
export { decodeOrSkip } from "./decode.ts"
export { eventRecord } from "./events.ts"
export {
  InfrastructureConfig,
  type InfrastructureNeed,
  infrastructureLayer,
  type Provided,
  singleNodeBusFor,
} from "./infrastructure.ts"
export { KafkaBus, type KafkaBusOptions } from "./kafka/index.ts"
export { OutboxRelay, type OutboxRelayOptions, runOutboxRelay } from "./outbox/relay.ts"
export { type OutboxRow, outboxChannel, outboxTableSql } from "./outbox/table.ts"
export {
  type ConfiguredService,
  defineService,
  runService,
  type ServiceApp,
  type ServiceConfig,
  type ServiceDefinition,
  type ServiceDefinitionOptions,
} from "./service.ts"
export { SingleNodeBus, type SingleNodeBusOptions } from "./single-node/SingleNodeBus.ts"
export type { BusTimings } from "./single-node/timings.ts"
