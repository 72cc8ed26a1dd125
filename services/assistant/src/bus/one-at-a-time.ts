import { Effect } from "effect"

/**
 * Runs effects one at a time per key, in the order they were started. The bus hands a partition's
 * records to up to `window` handlers at once; messages of one customer must still be answered in
 * order (the second message continues the conversation the first one changed), while other
 * customers in the same partition keep flowing.
 */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<void>>()

  run<A, E, R>(key: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.suspend(() => {
      const previous = this.tails.get(key) ?? Promise.resolve()
      let release!: () => void
      const mine = new Promise<void>((resolve) => {
        release = resolve
      })
      const tail = previous.then(() => mine)
      this.tails.set(key, tail)
      return Effect.promise(() => previous).pipe(
        Effect.andThen(effect),
        Effect.ensuring(
          Effect.sync(() => {
            release()
            if (this.tails.get(key) === tail) this.tails.delete(key)
          }),
        ),
      )
    })
  }
}
