/**
 * Runs the webhook registry alone (see `runService`): it listens on PARLEY_WEBHOOK_REGISTRY_HOST (else
 * PARLEY_HOST) : PARLEY_WEBHOOK_REGISTRY_PORT.
 */
import { runService } from "@parley/bus"
import { webhookRegistryService } from "./app.ts"

runService(webhookRegistryService)
