/**
 * Hooks that make a route refuse calls not vouched for by the gateway (`requirePrincipal`) or by
 * another service (`requireInternal`). Use as a route's `preHandler`, or add to an encapsulated
 * plugin with `app.addHook("preHandler", …)` so every route inside inherits it.
 */

import type { IncomingMessage } from "node:http"
import type { Principal } from "@parley/contracts"
import { Result } from "effect"
import type { FastifyReply, FastifyRequest } from "fastify"
import { unauthorized } from "../errors.ts"
import {
  INTERNAL_HEADER,
  type InternalSecret,
  PRINCIPAL_HEADER,
  verifyInternalCall,
  verifyPrincipal,
} from "../principal.ts"

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `requirePrincipal` on routes that run it. */
    principal: Principal | undefined
  }
}

type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

/**
 * Where a gateway in the same process puts the principal of a request it hands over whole
 * (`npm start`): on the raw request object, under a symbol no HTTP client can set — only code in
 * this process can. The service takes it as verified, skipping the HMAC and the envelope's decode
 * that the signed header costs; a request from a socket never carries it and is verified as ever.
 */
const IN_PROCESS_PRINCIPAL = Symbol("@parley/platform/inProcessPrincipal")

/** Gives the service in this process that `raw` is handed to its caller's principal, unsigned. */
export const handPrincipalInProcess = (raw: IncomingMessage, principal: Principal): void => {
  ;(raw as unknown as Record<symbol, Principal>)[IN_PROCESS_PRINCIPAL] = principal
}

const inProcessPrincipalOf = (request: FastifyRequest): Principal | undefined =>
  (request.raw as unknown as Record<symbol, Principal | undefined>)[IN_PROCESS_PRINCIPAL]

const headerOf = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return typeof value === "string" ? value : undefined
}

export const requirePrincipal =
  (secret: InternalSecret): PreHandler =>
  async (request) => {
    const handed = inProcessPrincipalOf(request)
    if (handed !== undefined) {
      request.principal = handed
      return
    }
    const verified = verifyPrincipal(secret, headerOf(request, PRINCIPAL_HEADER))
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
