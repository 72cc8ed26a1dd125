/**
 * Runs the gateway alone (see `runService`): the public edge on PARLEY_HOST:PARLEY_PORT, `/metrics`
 * and the probes on PARLEY_GATEWAY_METRICS_HOST:PARLEY_GATEWAY_METRICS_PORT. SIGTERM/SIGINT close
 * the Scope: the servers drain, noted key usage is published, Redis and the pools close, and the
 * consumer leaves its group before the process exits.
 */
import { runService } from "@parley/bus"
import { gatewayService } from "./app.ts"

runService(gatewayService)
