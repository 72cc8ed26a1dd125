/** `@parley/platform/testing`: helpers for tests of every workspace. */
export { type EventuallyOptions, eventually } from "./testing/eventually.ts"
export {
  type ReceivedRequest,
  type StubHandler,
  type StubResponse,
  type StubServer,
  startHttpServer,
} from "./testing/http-server.ts"
export { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./testing/otlp-receiver.ts"
export { filledPath, type RouteSpelling, spellingsOf } from "./testing/route-spellings.ts"
export {
  freePort,
  type ServiceProcess,
  type ServiceProcessOptions,
  startServiceProcess,
} from "./testing/service-process.ts"
export { typeCastsIn } from "./testing/type-casts.ts"
