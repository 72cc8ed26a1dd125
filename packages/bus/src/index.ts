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
export { type ServiceInfrastructureOptions, serviceInfrastructure, singleNodeBusFor } from "./infrastructure.ts"
export { KafkaBus, type KafkaBusOptions } from "./kafka/index.ts"
export { OutboxRelay } from "./OutboxRelay.ts"
export { SingleNodeBus, type SingleNodeBusOptions } from "./single-node/SingleNodeBus.ts"
export type { BusTimings } from "./single-node/timings.ts"
