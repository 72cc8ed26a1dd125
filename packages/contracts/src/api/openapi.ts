/**
 * The OpenAPI 3.1 document of Parley's API (docs/contract.md §11), built from the same Effect Schemas
 * the services decode with. The gateway serves it at `/docs/openapi.json`. See `openapi/`.
 */
export {
  type OpenApiDocument,
  type OpenApiOptions,
  openApiDocument,
  operations as openApiOperations,
} from "./openapi/document.ts"
export type { Operation as OpenApiOperation } from "./openapi/model.ts"
