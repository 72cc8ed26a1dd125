import { lookup } from "node:dns/promises"

/** One address a hostname resolves to. */
export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/**
 * Resolves a hostname to every address it has. The system resolver by default; tests pass their own
 * to play DNS answers (private addresses, rebinding) without touching real DNS.
 */
export type Resolver = (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true })
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }))
}
