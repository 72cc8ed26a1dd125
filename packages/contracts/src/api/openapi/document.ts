/**
 * Assembles the OpenAPI 3.1 document of the public and private API (docs/contract.md §11) from the
 * operation tables, and its `webhooks` section from the event catalogue (`deliveries.ts`). Every named Effect Schema is compiled in one pass
 * (`SchemaRepresentation.toRepresentations` → JSON Schema 2020-12 → OpenAPI 3.1), so shared
 * pieces (`IsoTimestamp`, `Webhook`, `ErrorBody`) become one component each.
 */
import { JsonSchema, Schema, SchemaRepresentation } from "effect"
import { ErrorBody } from "../../errors.ts"
import { allServiceRoutes } from "../routes/index.ts"
import type { BodySchema, JsonSchemaObject, Reply } from "../routes/model.ts"
import { deliveryHeaderParameters, deliverySchemas, deliveryWebhooks } from "./deliveries.ts"
import { countsAgainstRateLimits, errorStatusesOf, securityOf, securitySchemes } from "./errors.ts"
import { type Operation, operationOf } from "./model.ts"

/** Every documented operation, in the order the document lists them: every declared route but the internal ones. */
export const operations: ReadonlyArray<Operation> = allServiceRoutes.flatMap((service) =>
  Object.entries(service.routes)
    .filter(([, route]) => route.access !== "internal")
    .map(([name, route]) => operationOf(name, route)),
)

export interface OpenApiOptions {
  readonly version?: string
  /** The gateway's public base URL, listed as the server. */
  readonly serverUrl?: string
}

export type OpenApiDocument = Record<string, unknown> & {
  readonly openapi: "3.1.0"
  readonly paths: Record<string, Record<string, Record<string, unknown>>>
  readonly components: { readonly schemas: Record<string, JsonSchemaObject> } & Record<string, unknown>
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** Compiles every named Schema once; names must be unique (one name, one Schema). */
const compileSchemas = (named: ReadonlyArray<{ name: string; effect: Schema.Top }>) => {
  const unique = new Map<string, Schema.Top>()
  for (const { name, effect } of named) {
    const seen = unique.get(name)
    if (seen !== undefined && seen !== effect) throw new Error(`OpenAPI: two schemas are named ${name}`)
    unique.set(name, effect)
  }
  const entries = [...unique]
  const asts = entries.map(([, effect]) => Schema.toCodecJson(effect).ast)
  const representations = SchemaRepresentation.toRepresentations(asts as [(typeof asts)[0], ...typeof asts])
  const compiled = JsonSchema.toMultiDocumentOpenApi3_1(
    SchemaRepresentation.toJsonSchemaMultiDocument(representations, { generateDescriptions: true }),
  )
  const schemas: Record<string, JsonSchemaObject> = { ...(compiled.definitions as Record<string, JsonSchemaObject>) }
  entries.forEach(([name], index) => {
    const root = compiled.schemas[index] as JsonSchemaObject
    // A Schema annotated with its own identifier compiles to a reference to its definition.
    if (root.$ref === ref(name).$ref) return
    if (schemas[name] !== undefined && JSON.stringify(schemas[name]) !== JSON.stringify(root)) {
      throw new Error(`OpenAPI: ${name} names both a root schema and a different definition`)
    }
    schemas[name] = root
  })
  return schemas
}

const schemaOf = (body: BodySchema): JsonSchemaObject => ("effect" in body ? ref(body.name) : body.json)

const resolve = (schema: JsonSchemaObject, components: Record<string, JsonSchemaObject>): JsonSchemaObject => {
  const target = typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined
  return target === undefined ? schema : resolve(components[target] ?? {}, components)
}

const queryParameters = (query: BodySchema, components: Record<string, JsonSchemaObject>) => {
  const object = resolve(schemaOf(query), components)
  const properties = (object.properties ?? {}) as Record<string, JsonSchemaObject>
  const required = new Set((object.required ?? []) as ReadonlyArray<string>)
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema,
  }))
}

const requestIdHeader = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } }
const rateLimitHeaders = Object.fromEntries(
  ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"].map((name) => [
    name,
    { $ref: `#/components/headers/${name}` },
  ]),
)

const replyOf = (reply: Reply, counted: boolean) => ({
  description: reply.description,
  headers: { ...requestIdHeader, ...(counted ? rateLimitHeaders : {}), ...reply.headers },
  ...(reply.content === undefined
    ? {}
    : {
        content: Object.fromEntries(
          Object.entries(reply.content).map(([type, body]) => [type, { schema: schemaOf(body) }]),
        ),
      }),
})

const operationObject = (op: Operation, components: Record<string, JsonSchemaObject>) => {
  const counted = countsAgainstRateLimits(op)
  const responses: Record<string, unknown> = {}
  for (const [status, reply] of Object.entries(op.responses)) responses[status] = replyOf(reply, counted)
  for (const [status, texts] of Object.entries(errorStatusesOf(op))) {
    const retry =
      status === "429" || status === "503" ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {}
    responses[status] = {
      description: texts.join("; "),
      headers: { ...requestIdHeader, ...(counted && status === "429" ? rateLimitHeaders : {}), ...retry },
      content: { "application/json": { schema: ref("ErrorBody") } },
    }
  }
  const parameters = [
    ...Object.entries(op.pathParams ?? {}).map(([name, description]) => ({
      name,
      in: "path",
      required: true,
      description,
      schema: { type: "string" },
    })),
    ...(op.query === undefined ? [] : queryParameters(op.query, components)),
  ]
  const security = securityOf(op)
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    ...(op.description === undefined ? {} : { description: op.description }),
    ...(security === undefined ? {} : { security }),
    ...(op.scope === undefined ? {} : { "x-parley-scope": op.scope }),
    ...(op.heavy === true ? { "x-parley-heavy": true } : {}),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(op.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            ...(op.body.description === undefined ? {} : { description: op.body.description }),
            content: Object.fromEntries(
              Object.entries(op.body.content).map(([type, body]) => [type, { schema: schemaOf(body) }]),
            ),
          },
        }),
    responses,
  }
}

const namedSchemasOf = (op: Operation): Array<{ name: string; effect: Schema.Top }> => {
  const bodies: Array<BodySchema> = [
    ...(op.query === undefined ? [] : [op.query]),
    ...Object.values(op.body?.content ?? {}),
    ...Object.values(op.responses).flatMap((reply) => Object.values(reply.content ?? {})),
  ]
  return bodies.flatMap((body) => ("effect" in body ? [body] : []))
}

const headers = {
  "X-Request-Id": { description: "Echoed from the request when given, else generated.", schema: { type: "string" } },
  "RateLimit-Limit": { description: "The limit that answered (the tighter one).", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Requests left in the window.", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the window frees capacity.", schema: { type: "integer" } },
  "RateLimit-Policy": { description: "`300;w=60`", schema: { type: "string" } },
  "Retry-After": { description: "Whole seconds, at least 1.", schema: { type: "integer" } },
}

/** The OpenAPI 3.1 document (a fresh object each call; compiling takes a few milliseconds). */
export const openApiDocument = (options: OpenApiOptions = {}): OpenApiDocument => {
  const schemas = compileSchemas([
    { name: "ErrorBody", effect: ErrorBody },
    ...operations.flatMap(namedSchemasOf),
    ...deliverySchemas,
  ])
  const paths: Record<string, Record<string, Record<string, unknown>>> = {}
  for (const op of operations) {
    const item = paths[op.path] ?? {}
    if (item[op.method] !== undefined) throw new Error(`OpenAPI: ${op.method.toUpperCase()} ${op.path} listed twice`)
    item[op.method] = operationObject(op, schemas)
    paths[op.path] = item
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley API",
      version: options.version ?? "0.1.0",
      description:
        "The public widget surface (`/api/public/*`), the private API and the channel ingress of Parley. Errors are `{ error, code, issues? }`; every response carries `X-Request-Id`.",
    },
    ...(options.serverUrl === undefined ? {} : { servers: [{ url: options.serverUrl }] }),
    tags: [
      ...[...new Set(operations.map((op) => op.tag))].map((name) => ({ name })),
      { name: "Deliveries", description: "What Parley sends to a webhook's URL (docs/contract.md §6)." },
    ],
    paths,
    webhooks: deliveryWebhooks(),
    components: { schemas, securitySchemes, headers, parameters: deliveryHeaderParameters },
  }
}
