/**
 * Every route of Parley, declared once per service (see `README.md`). The gateway, the OpenAPI
 * document and each service's registration compile what they need from these.
 */
import { assistantRoutes } from "./assistant.ts"
import { identityRoutes } from "./identity.ts"
import { messagingRoutes } from "./messaging.ts"
import type { RouteDeclaration, ServiceName, ServiceRoutes } from "./model.ts"
import { webhookRegistryRoutes } from "./webhook-registry.ts"

export { assistantRoutes } from "./assistant.ts"
export { gatewayRoutes } from "./gateway.ts"
export { identityRoutes } from "./identity.ts"
export {
  CAMPAIGN_BODY_LIMIT,
  CLOUD_WEBHOOK_BODY_LIMIT,
  IMPORT_BODY_LIMIT,
  MEDIA_BODY_LIMIT,
  MEDIA_TYPES,
  messagingRoutes,
} from "./messaging.ts"
export {
  type Access as RouteAccess,
  type BodySchema,
  checkService,
  type HttpMethod as RouteMethod,
  isProviderAccess,
  JSON_BODY_LIMIT,
  type JsonSchemaObject,
  MiB,
  type NamedSchema,
  type PathParam,
  pathParamNames,
  type Reply,
  type RequestBody,
  type RouteDeclaration,
  type RouteOwner,
  type ServiceName,
  type ServiceRoutes,
  serviceRoutes,
  successStatusOf,
  underPrefix,
} from "./model.ts"
export { webhookRegistryRoutes } from "./webhook-registry.ts"

/**
 * The routes of every service behind the gateway, in the order the OpenAPI document lists them
 * (`gatewayRoutes`, the gateway's own, are apart).
 */
export const allServiceRoutes: ReadonlyArray<ServiceRoutes<Record<string, RouteDeclaration>, ServiceName>> = [
  identityRoutes,
  webhookRegistryRoutes,
  assistantRoutes,
  messagingRoutes,
]
