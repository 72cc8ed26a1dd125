/**
 * Runs the dispatcher alone (see `runService`): health and metrics on PARLEY_DISPATCHER_PORT, up
 * before its consumers join their groups; readiness follows them.
 */
import { runService } from "@parley/bus"
import { dispatcherService } from "./app.ts"

runService(dispatcherService)
