/**
 * `@parley/bus/testing`: the contract every bus adapter must pass, and (from the Kafka adapter)
 * `kafkaTestBrokers()` for tests that need a broker.
 */
export { type BusContractBackend, type BusContractInstance, busContractSuite } from "./contract/suite.ts"
export { kafkaTestBrokers } from "./kafka/testing-broker.ts"
