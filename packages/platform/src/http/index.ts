export { essence, mediaTypeMatches, parseStrictJson, type RawBodyOptions, rawBodyOf, readBody } from "./body.ts"
export { handleError, sendApiError, toApiError } from "./error-response.ts"
export { type CheckOutcome, type ReadinessCheck, runReadiness } from "./health.ts"
export { isAcceptableRequestId, REQUEST_ID_HEADER } from "./request-id.ts"
export {
  type BodyOf,
  type ParamsOf,
  type PrincipalOf,
  type QueryOf,
  type RouteHandler,
  type RouteHandlers,
  type RouteInput,
  refuseUndeclaredRoutes,
  type ServeRoutesOptions,
  serveRoutes,
} from "./routes.ts"
export {
  DEFAULT_BODY_LIMIT,
  type HttpServer,
  type HttpServerOptions,
  type MetricsServerOptions,
  makeHttpServer,
  makeMetricsServer,
  setHardeningHeaders,
} from "./server.ts"
