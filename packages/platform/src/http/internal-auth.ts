/**
 * Hooks that make a route refuse calls not vouched for by the gateway (`requirePrincipal`) or by
 * another service (`requireInternal`). Use as a route's `preHandler`, or add to an encapsulated
 * plugin with `app.addHook("preHandler", …)` so every route inside inherits it.
 */

import type { Principal } from "@parley/contracts"
import { Result } from "effect"
import type { FastifyReply, FastifyRequest } from "fastify"
import { unauthorized } from "../errors.ts"
import {
  INTERNAL_HEADER,
  type InternalSecret,
  PRINCIPAL_HEADER,
  receivePrincipal,
  verifyInternalCall,
} from "../principal.ts"

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `requirePrincipal` on routes that run it. */
    principal: Principal | undefined
  }
}

type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

const headerOf = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return typeof value === "string" ? value : undefined
}

export const requirePrincipal =
  (secret: InternalSecret): PreHandler =>
  async (request) => {
    const verified = receivePrincipal(secret, request.raw, headerOf(request, PRINCIPAL_HEADER))
    if (Result.isFailure(verified)) {
      request.log.warn({ reason: verified.failure.reason }, "principal rejected")
      throw unauthorized("Unauthorized")
    }
    request.principal = verified.success
  }

export const requireInternal =
  (secret: InternalSecret): PreHandler =>
  async (request) => {
    const verified = verifyInternalCall(secret, {
      method: request.method,
      path: request.url,
      header: headerOf(request, INTERNAL_HEADER),
    })
    if (Result.isFailure(verified)) {
      request.log.warn({ reason: verified.failure.reason }, "internal call rejected")
      throw unauthorized("Unauthorized")
    }
  }

/** The verified principal of a route behind `requirePrincipal`; a 401 if the hook did not run. */
export const principalOf = (request: FastifyRequest): Principal => {
  if (request.principal === undefined) throw unauthorized("Unauthorized")
  return request.principal
}
