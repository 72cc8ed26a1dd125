/**
 * `@parley/bus/testing`: the contract every bus adapter must pass, (from the Kafka adapter)
 * `kafkaTestBrokers()` for tests that need a broker, and `partitionOf` to place keys.
 */
export { type BusContractBackend, type BusContractInstance, busContractSuite } from "./contract/suite.ts"
export { kafkaTestBrokers } from "./kafka/testing-broker.ts"
export { partitionOf } from "./partitioning.ts"
