/**
 * How guessable a new password is, by zxcvbn (zxcvbn-ts, the maintained TypeScript port of
 * Dropbox's estimator) with its common dictionaries: the most used passwords, names, keyboard
 * patterns, repeats, sequences and dates, and the user's own email and organization name. A new
 * password must reach score 3, "safely unguessable: moderate protection from an offline
 * slow-hash scenario" (about 10^8 guesses) — the scenario an scrypt hash faces if the database
 * leaks — which "0123456789", "password12" or "qwertyuiop" do not and "a long password" does. NIST
 * SP 800-63B asks for such a check against common passwords instead of composition rules.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core"
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common"

export const MinPasswordScore = 3

/** What a refused password is told, whatever made it weak (the estimator's feedback is English-only). */
export const WeakPasswordText =
  "is too easy to guess (a common password, a pattern or repeated words): use a longer phrase"

// Built on first use: loading the dictionaries takes a few hundred milliseconds.
let estimator: ZxcvbnFactory | undefined

/** Whether `password` is too easy to guess for someone who knows `userInputs` (email, organization name). */
export const isGuessable = (password: string, userInputs: ReadonlyArray<string>): boolean => {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs })
  // Each input whole and word by word ("Harborview Dental" → harborview, dental; an email's parts).
  const words = userInputs.flatMap((input) => [input, ...input.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2)])
  return estimator.check(password, words).score < MinPasswordScore
}
