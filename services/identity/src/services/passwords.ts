/**
 * Password hashing as a service, so its cost is configured once (tests use a cheaper one) and the
 * dummy hash that keeps unknown-email logins as slow as wrong-password ones is made once.
 */
import { Context, Effect, Layer } from "effect"
import { DEFAULT_SCRYPT_COST, hashPassword, type ScryptCost, verifyPassword } from "../domain/password.ts"

export class Passwords extends Context.Service<
  Passwords,
  {
    readonly hash: (password: string) => Effect.Effect<string>
    /** `stored` undefined (no such user) still costs one full verification, against a dummy hash. */
    readonly verify: (password: string, stored: string | undefined) => Effect.Effect<boolean>
  }
>()("@parley/identity/Passwords") {
  static layer(cost: ScryptCost = DEFAULT_SCRYPT_COST) {
    return Layer.effect(
      Passwords,
      Effect.gen(function* () {
        const dummy = yield* Effect.promise(() => hashPassword(crypto.randomUUID(), cost))
        return Passwords.of({
          hash: (password) => Effect.promise(() => hashPassword(password, cost)),
          verify: (password, stored) =>
            Effect.promise(async () => {
              const ok = await verifyPassword(password, stored ?? dummy)
              return stored !== undefined && ok
            }),
        })
      }),
    )
  }
}
