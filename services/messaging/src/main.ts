/**
 * Runs messaging alone (see `runService`), listening on PARLEY_MESSAGING_HOST:PARLEY_MESSAGING_PORT. A
 * stop signal closes the Scope: the server drains, the campaign worker finishes the batch in hand
 * (claimed recipients get their outcome recorded), the reply consumer commits and leaves its group,
 * then the pool ends.
 */
import { runService } from "@parley/bus"
import { messagingService } from "./app.ts"

runService(messagingService)
