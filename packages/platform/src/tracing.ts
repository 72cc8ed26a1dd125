/**
 * OpenTelemetry tracing (docs/contract.md §18), with the OpenTelemetry JS SDK: every service exports its
 * spans over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * is set, as `OTEL_EXPORTER_OTLP_PROTOCOL` says (`http/protobuf`, the default, or `http/json`),
 * named `OTEL_SERVICE_NAME` or else the service's own name, sampled per `OTEL_TRACES_SAMPLER`
 * (default `parentbased_always_on`) and `OTEL_TRACES_SAMPLER_ARG`.
 *
 * Unset, nothing is started: no provider, no context manager, no exporter. Every instrumentation
 * point asks `tracingEnabled()` (a module variable) first and does nothing else, so a request costs
 * one branch per point.
 *
 * W3C trace context (`traceparent`, `tracestate`) travels on HTTP requests and bus records. Inside
 * Effect code the current span is the fiber's (`Effect.withParentSpan`; `@effect/opentelemetry`'s
 * tracer keeps OpenTelemetry's context active while a traced fiber runs, so plain code it calls
 * sees the same span); plain code (the gateway's forwarding path) runs inside `context.with`.
 */
import * as OtelTracer from "@effect/opentelemetry/OtelTracer"
import * as Otel from "@opentelemetry/api"
import type { W3CTraceContextPropagator } from "@opentelemetry/core"
import type { Sampler, SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace"
import { Effect, Tracer } from "effect"

export type TracingEnv = Readonly<Record<string, string | undefined>>

interface Tracing {
  readonly provider: TracerProvider
  readonly tracer: Otel.Tracer
  readonly effectTracer: Tracer.Tracer
  readonly propagator: W3CTraceContextPropagator
  users: number
}

let tracing: Tracing | undefined

/** True once `startTracing` found an endpoint: the one check every instrumentation point makes first. */
export const tracingEnabled = (): boolean => tracing !== undefined

const endpointOf = (env: TracingEnv) =>
  (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || "").trim()

/** `OTEL_TRACES_SAMPLER` as the specification names them; an unknown one is refused at start. */
export const samplerFromEnv = async (env: TracingEnv): Promise<Sampler> => {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = await import(
    "@opentelemetry/sdk-trace"
  )
  const name = (env.OTEL_TRACES_SAMPLER || "parentbased_always_on").trim()
  const ratio = () => {
    const arg = Number(env.OTEL_TRACES_SAMPLER_ARG ?? "1")
    return Number.isFinite(arg) && arg >= 0 && arg <= 1 ? arg : 1
  }
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler()
    case "always_off":
      return new AlwaysOffSampler()
    case "traceidratio":
      return new TraceIdRatioBasedSampler(ratio())
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) })
    default:
      throw new Error(
        `OTEL_TRACES_SAMPLER=${name} is not one of always_on, always_off, traceidratio, parentbased_always_on, ` +
          "parentbased_always_off, parentbased_traceidratio",
      )
  }
}

/** Where spans go: the traces endpoint as given, else `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces` (the specification's rule). */
const tracesUrl = (env: TracingEnv) => {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
  if (traces) return traces
  return `${endpointOf(env).replace(/\/+$/, "")}/v1/traces`
}

const exporterFor = async (env: TracingEnv) => {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf").trim()
  const config = { url: tracesUrl(env) }
  if (protocol === "http/json")
    return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter(config)
  if (protocol === "http/protobuf") {
    return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter(config)
  }
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: Parley exports traces over http/protobuf or http/json`)
}

/** Where tracing says that its endpoint stopped or started taking spans (a service's logger). */
export interface TracingLogger {
  warn(fields: object, message: string): void
  info(fields: object, message: string): void
}

/**
 * The exporter, saying once when the endpoint stops taking spans (the SDK drops them, and says
 * nothing unless a diagnostic logger is installed) and once when it takes them again: an operator
 * whose collector is unreachable or refuses Parley's spans reads it in the logs instead of finding
 * the traces missing. The endpoint is named by its origin only.
 */
const reportingFailures = (exporter: SpanExporter, url: string, logger: TracingLogger | undefined): SpanExporter => {
  if (logger === undefined) return exporter
  const endpoint = URL.canParse(url) ? new URL(url).origin : "(the OTLP endpoint)"
  let failing = false
  const reported: SpanExporter = {
    export: (spans, done) =>
      exporter.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0 (`@opentelemetry/core`, not loaded when tracing is off).
        const failed = result.code !== 0
        if (failed && !failing) {
          logger.warn(
            { endpoint, err: { message: result.error?.message ?? "export failed" } },
            "tracing: the OTLP endpoint does not take spans; they are dropped until it does",
          )
        } else if (!failed && failing) logger.info({ endpoint }, "tracing: the OTLP endpoint takes spans again")
        failing = failed
        done(result)
      }),
    shutdown: () => exporter.shutdown(),
  }
  const flush = exporter.forceFlush
  return flush === undefined ? reported : { ...reported, forceFlush: () => flush.call(exporter) }
}

/**
 * The OpenTelemetry context each parent span made by `withTraceContext` stands for. The tracer of
 * `@effect/opentelemetry` rebuilds the active context from such an external span out of its ids and
 * flags only, dropping its `tracestate` (4.1.0: `makeSpanContext` reads the span's trace state only
 * when given annotations), so plain code in the fiber (a provider call, a webhook attempt, a
 * group commit's submission) would send `traceparent` without `tracestate` (§18 carries both).
 */
const carriedContexts = new WeakMap<Tracer.AnySpan, Otel.Context>()

/** Effect's OpenTelemetry tracer, except that a fiber whose parent is such a span runs in its whole context. */
const keepingCarriedContexts = (base: Tracer.Tracer): Tracer.Tracer => {
  const baseContext = base.context
  return Tracer.make({
    span: (options) => base.span(options),
    context: (primitive, fiber) => {
      const span = fiber.cache.span
      const carried = span?._tag === "ExternalSpan" ? carriedContexts.get(span) : undefined
      if (carried !== undefined) return Otel.context.with(carried, () => primitive["~effect/Effect/evaluate"](fiber))
      return baseContext === undefined ? primitive["~effect/Effect/evaluate"](fiber) : baseContext(primitive, fiber)
    },
  })
}

/**
 * Starts exporting when the environment asks for it (else does nothing and answers a no-op; the
 * SDK is not even loaded). One provider per process: `npm start` hosts every service in one
 * process, whose spans are named by the first caller (`OTEL_SERVICE_NAME` wins). Answers the
 * shutdown, which flushes pending spans.
 */
export const startTracing = async (
  serviceName: string,
  env: TracingEnv = process.env,
  logger?: TracingLogger,
): Promise<() => Promise<void>> => {
  if (endpointOf(env) === "" || env.OTEL_SDK_DISABLED === "true") return async () => {}
  if (tracing === undefined) {
    const [{ BatchSpanProcessor, TracerProvider }, { resourceFromAttributes }, { AsyncLocalStorageContextManager }] =
      await Promise.all([
        import("@opentelemetry/sdk-trace"),
        import("@opentelemetry/resources"),
        import("@opentelemetry/context-async-hooks"),
      ])
    const { W3CTraceContextPropagator } = await import("@opentelemetry/core")
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME?.trim() || serviceName }),
      sampler: await samplerFromEnv(env),
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: reportingFailures(await exporterFor(env), tracesUrl(env), logger),
          scheduledDelayMillis: 500,
        }),
      ],
    })
    Otel.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
    const propagator = new W3CTraceContextPropagator()
    Otel.propagation.setGlobalPropagator(propagator)
    Otel.trace.setGlobalTracerProvider(provider)
    const tracer = provider.getTracer("parley")
    const effectTracer = keepingCarriedContexts(
      Effect.runSync(Effect.provideService(OtelTracer.make, OtelTracer.OtelTracer, tracer)),
    )
    tracing = { provider, tracer, effectTracer, propagator, users: 0 }
  }
  const started = tracing
  started.users++
  return async () => {
    if (--started.users > 0) return
    await started.provider.shutdown()
    if (tracing === started) {
      tracing = undefined
      Otel.trace.disable()
      Otel.propagation.disable()
      Otel.context.disable()
    }
  }
}

/** Pending spans out now (tests; a process about to exit). */
export const flushTracing = async (): Promise<void> => {
  await tracing?.provider.forceFlush()
}

type Carrier = Record<string, string | Array<string> | undefined>
const getter: Otel.TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
}
const setter: Otel.TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value
  },
}

/** The context a request or record carries (`traceparent`, `tracestate`), over the active one. */
export const extractContext = (headers: Carrier): Otel.Context =>
  tracing === undefined ? Otel.ROOT_CONTEXT : tracing.propagator.extract(Otel.context.active(), headers, getter)

/** Adds `traceparent` (and `tracestate`) of `context` (default: the active one) to `headers`. */
export const injectContext = (headers: Record<string, string>, context?: Otel.Context): void => {
  if (tracing === undefined) return
  tracing.propagator.inject(context ?? Otel.context.active(), headers, setter)
}

/**
 * Records (bus records to publish) with the active context's `traceparent` in their headers, for
 * plain code whose records are published later by someone else (a group commit); as they are
 * without tracing or outside a trace.
 */
export const withActiveTrace = <T extends { readonly headers?: Record<string, string> }>(
  records: ReadonlyArray<T>,
): ReadonlyArray<T> => {
  if (tracing === undefined) return records
  const trace: Record<string, string> = {}
  injectContext(trace)
  if (trace.traceparent === undefined) return records
  return records.map((record) => ({ ...record, headers: { ...trace, ...record.headers } }))
}

/** Starts a span, a child of `parent` (default: the active context). Only when tracing is enabled. */
export const startSpan = (
  name: string,
  options: Otel.SpanOptions,
  parent?: Otel.Context,
): { readonly span: Otel.Span; readonly context: Otel.Context } | undefined => {
  if (tracing === undefined) return undefined
  const base = parent ?? Otel.context.active()
  const span = tracing.tracer.startSpan(name, options, base)
  return { span, context: Otel.trace.setSpan(base, span) }
}

/** Ends a span with the outcome of what it measured. */
export const endSpan = (span: Otel.Span, failure?: unknown): void => {
  if (failure !== undefined) {
    span.setStatus({ code: Otel.SpanStatusCode.ERROR, message: String((failure as Error)?.message ?? failure) })
  }
  span.end()
}

/**
 * Runs an Effect inside a span's context: its fiber's parent span is that span, and the tracer
 * keeps OpenTelemetry's context active while it runs, so bus records it publishes and HTTP calls
 * it makes carry the trace. Without tracing, the Effect itself.
 */
export const withTraceContext = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  context: Otel.Context | undefined,
): Effect.Effect<A, E, R> => {
  if (tracing === undefined || context === undefined) return effect
  const spanContext = Otel.trace.getSpanContext(context)
  if (spanContext === undefined) return effect
  // Its trace state as an annotation (Effect spans started under it keep it), and its whole context
  // for plain code (`keepingCarriedContexts`).
  const parent = OtelTracer.makeExternalSpan(spanContext)
  carriedContexts.set(parent, context)
  return effect.pipe(Effect.withParentSpan(parent), Effect.withTracer(tracing.effectTracer))
}

/**
 * `Effect.withSpan` for code that runs for every message: the span records no stack trace for its
 * code location (its name says where it is). Effect captures one each time `withSpan` is applied,
 * traced or not, and on the message path that was 1.6 % of the process's CPU (test/bench/e2e).
 */
export const withHotSpan =
  (name: string, options: Omit<Tracer.SpanOptions, "captureStackTrace"> = {}) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withSpan(effect, name, { ...options, captureStackTrace: false })

/**
 * The W3C headers (`traceparent`, `tracestate`) of the current fiber's span (an Effect), for a
 * record or a request it sends; empty without tracing or outside a trace.
 */
export const currentTraceHeaders: Effect.Effect<Record<string, string>> = Effect.suspend(() => {
  const started = tracing
  if (started === undefined) return Effect.succeed({})
  // Only a fiber traced by OpenTelemetry's tracer (`withTraceContext`): the native tracer's spans
  // are exported nowhere, so their ids would name spans no collector ever sees. In such a fiber the
  // tracer keeps the span's OpenTelemetry context active, trace state included: that is injected.
  return Effect.flatMap(Effect.tracer, (tracer) =>
    tracer !== started.effectTracer
      ? Effect.succeed({})
      : Effect.flatMap(Effect.currentParentSpan, () =>
          Effect.sync(() => {
            const headers: Record<string, string> = {}
            injectContext(headers)
            return headers
          }),
        ).pipe(Effect.orElseSucceed(() => ({}))),
  )
})

/**
 * Runs `f` outside any trace: work started on behalf of one delivery or request that then serves
 * others (a queue drained later) must not be attributed to it.
 */
export const outsideTrace = <T>(f: () => T): T =>
  tracing === undefined ? f() : Otel.context.with(Otel.ROOT_CONTEXT, f)

/** The active OpenTelemetry context when tracing is on (for a hand-over to another fiber or queue). */
export const activeTraceContext = (): Otel.Context | undefined =>
  tracing === undefined ? undefined : Otel.context.active()

/**
 * The context to run a batch of items in, each submitted in its own: theirs when they share one
 * trace position (one item, typically, when idle); else a new span linked to each item's, so a
 * batch under load is one trace that every item's own links to.
 */
export const batchTraceContext = (
  contexts: ReadonlyArray<Otel.Context | undefined>,
  name: string,
): { readonly context: Otel.Context; readonly end: () => void } | undefined => {
  if (tracing === undefined) return undefined
  const spans = contexts.flatMap((context) => {
    const span = context === undefined ? undefined : Otel.trace.getSpanContext(context)
    return span === undefined ? [] : [span]
  })
  const first = contexts.find((context) => context !== undefined && Otel.trace.getSpanContext(context) !== undefined)
  if (first === undefined) return undefined
  if (spans.every((span) => span.spanId === spans[0]?.spanId)) return { context: first, end: () => {} }
  const started = startSpan(
    name,
    { root: true, links: spans.map((context) => ({ context })), attributes: { "parley.batch.items": contexts.length } },
    Otel.ROOT_CONTEXT,
  )
  if (started === undefined) return undefined
  return { context: started.context, end: () => started.span.end() }
}

/**
 * One outgoing HTTP call as a CLIENT span, its `traceparent` added to `headers`: a provider call, a
 * webhook attempt, a call between services. Without tracing, `call` as it is.
 */
export const tracedCall = async <T>(
  name: string,
  headers: Record<string, string>,
  attributes: Otel.Attributes,
  call: (span: Otel.Span | undefined) => Promise<T>,
): Promise<T> => {
  const started = startSpan(name, { kind: Otel.SpanKind.CLIENT, attributes })
  if (started === undefined) return call(undefined)
  injectContext(headers, started.context)
  try {
    const result = await Otel.context.with(started.context, () => call(started.span))
    endSpan(started.span)
    return result
  } catch (error) {
    endSpan(started.span, error)
    throw error
  }
}

export { Otel }
