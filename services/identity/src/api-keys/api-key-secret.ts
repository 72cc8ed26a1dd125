/**
 * Minting API keys. The format (and its checksum) lives in @parley/contracts so the gateway can
 * check a presented key without a read; minting needs randomness, so it lives here.
 */
import { randomBytes } from "node:crypto"
import {
  API_KEY_ALPHABET,
  API_KEY_LITERAL,
  API_KEY_PREFIX_LENGTH,
  API_KEY_RANDOM_LENGTH,
  apiKeyChecksum,
} from "@parley/contracts"

/** Uniform base62 string: bytes ≥ 248 are rejected so that `% 62` carries no bias. */
export const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += API_KEY_ALPHABET[byte % 62]
    }
  }
  return out
}

export interface MintedApiKey {
  /** The full key: shown once, never stored, never logged. */
  readonly key: string
  readonly prefix: string
}

export const mintApiKey = (): MintedApiKey => {
  const prefix = randomBase62(API_KEY_PREFIX_LENGTH)
  const body = `${API_KEY_LITERAL}_${prefix}.${randomBase62(API_KEY_RANDOM_LENGTH)}`
  return { key: body + apiKeyChecksum(body), prefix }
}
