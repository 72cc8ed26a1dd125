import { clientOptions, Database } from "@parley/db"
import { Effect, Exit, Layer, Scope } from "effect"
import postgres from "postgres"
import type { Bus, OutboxWriter } from "../Bus.ts"
import { SingleNodeBus, type SingleNodeBusOptions } from "./SingleNodeBus.ts"

/** A SingleNodeBus on its own client, built in its own scope: one "process" for these tests. */
export const startSingleNodeBus = async (
  url: string,
  options: SingleNodeBusOptions = {},
  /** Sees the text of every query this "process" sends. */
  onQuery?: (query: string) => void,
) => {
  const sql = postgres(url, {
    ...clientOptions(2),
    ...(onQuery === undefined ? {} : { debug: (_connection: number, query: string) => onQuery(query) }),
  })
  const scope = Effect.runSync(Scope.make())
  const layer = SingleNodeBus.layer(options).pipe(Layer.provideMerge(Layer.succeed(Database, { sql })))
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  return {
    sql,
    run: <A, E>(effect: Effect.Effect<A, E, Bus | OutboxWriter | Database | Scope.Scope>) =>
      Effect.runPromise(Effect.provideContext(effect.pipe(Scope.provide(scope)), context)),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await sql.end({ timeout: 5 })
    },
  }
}

export const eventually = async (condition: () => boolean | Promise<boolean>, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
