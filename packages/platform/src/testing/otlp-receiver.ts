/**
 * A loopback OTLP/HTTP trace receiver (`POST /v1/traces`, `http/json`): what a collector would be
 * sent, decoded to flat spans a test can assert on (ids as hex, the exporting service's name).
 */
import { type StubServer, startHttpServer } from "./http-server.ts"

export interface ReceivedSpan {
  readonly service: string
  readonly name: string
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  /** The span's W3C `tracestate` (`undefined` when it has none). */
  readonly traceState: string | undefined
  readonly attributes: Record<string, unknown>
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>
}

export interface OtlpReceiver {
  /** For `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter appends `/v1/traces`). */
  readonly endpoint: string
  readonly server: StubServer
  spans(): ReadonlyArray<ReceivedSpan>
  close(): Promise<void>
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }
type KeyValue = { key: string; value: AnyValue }
type OtlpSpan = {
  name: string
  kind: number
  traceId: string
  spanId: string
  parentSpanId?: string
  traceState?: string
  attributes?: Array<KeyValue>
  links?: Array<{ traceId: string; spanId: string }>
}
type OtlpExport = {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<KeyValue> }
    scopeSpans?: Array<{ spans?: Array<OtlpSpan> }>
  }>
}

const anyValue = (value: AnyValue): unknown =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.boolValue ??
  value.doubleValue

const attributesOf = (list: ReadonlyArray<KeyValue> | undefined) =>
  Object.fromEntries((list ?? []).map((entry) => [entry.key, anyValue(entry.value)]))

/** The JSON encoding writes ids as hex; base64 (the protobuf-JSON mapping) is decoded too. */
const hexId = (id: string | undefined) =>
  id === undefined || id === "" ? undefined : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, "base64").toString("hex")

export const startOtlpReceiver = async (): Promise<OtlpReceiver> => {
  const server = await startHttpServer(() => ({ status: 200, body: {} }))
  const spans = (): ReadonlyArray<ReceivedSpan> =>
    server.requests
      .filter((request) => request.path === "/v1/traces")
      .flatMap((request) =>
        ((request.json() as OtlpExport).resourceSpans ?? []).flatMap((resourceSpans) => {
          const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"] ?? "")
          return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
            (scope.spans ?? []).map((span) => ({
              service,
              name: span.name,
              kind: span.kind,
              traceId: hexId(span.traceId) as string,
              spanId: hexId(span.spanId) as string,
              parentSpanId: hexId(span.parentSpanId),
              traceState: span.traceState || undefined,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map((link) => ({
                traceId: hexId(link.traceId) as string,
                spanId: hexId(link.spanId) as string,
              })),
            })),
          )
        }),
      )
  return { endpoint: server.url, server, spans, close: () => server.close() }
}
