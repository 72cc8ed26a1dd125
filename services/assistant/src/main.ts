/** Runs the assistant alone (see `runService`): it listens on PARLEY_ASSISTANT_HOST:PARLEY_ASSISTANT_PORT. */
import { runService } from "@parley/bus"
import { assistantService } from "./app.ts"

runService(assistantService)
