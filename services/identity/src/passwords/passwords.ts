/**
 * Password hashing as a service, so its cost is configured once (tests use a cheaper one) and the
 * dummy hash that keeps unknown-email logins as slow as wrong-password ones is made once.
 */
import { Context, Effect, Layer } from "effect"
import { WeakPassword } from "../errors.ts"
import { DEFAULT_SCRYPT_COST, hashPassword, type ScryptCost, verifyPassword } from "./password.ts"
import { isGuessable } from "./password-strength.ts"

export class Passwords extends Context.Service<
  Passwords,
  {
    /**
     * A new password's hash, unless it is easy to guess for someone who knows `userInputs` (the
     * user's email, the organization's name): then WeakPassword naming the field at `path`.
     */
    readonly hashNew: (
      password: string,
      path: string,
      userInputs: ReadonlyArray<string>,
    ) => Effect.Effect<string, WeakPassword>
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
          hashNew: (password, path, userInputs) =>
            isGuessable(password, userInputs)
              ? Effect.fail(new WeakPassword({ path }))
              : Effect.promise(() => hashPassword(password, cost)),
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
