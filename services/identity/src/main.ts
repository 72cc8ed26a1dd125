/** Runs identity alone (see `runService`): it listens on PARLEY_IDENTITY_HOST:PARLEY_IDENTITY_PORT. */
import { runService } from "@parley/bus"
import { identityService } from "./app.ts"

runService(identityService)
