/**
 * Password hashing with scrypt (RFC 7914). The hash string carries its own parameters and salt,
 * `scrypt$<log2 N>$<r>$<p>$<salt b64>$<hash b64>`, so the cost can be raised later without
 * invalidating older hashes.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

export interface ScryptCost {
  readonly log2N: number
  readonly r: number
  readonly p: number
}

/**
 * OWASP's scrypt floor is N=2^17, r=8, p=1 (128 MiB); N=2^15, r=8, p=3 is its listed equivalent at a
 * quarter of the memory (32 MiB), which suits several service instances per node. ≈ 200 ms per hash on
 * this machine's cores. Tests may pass a cheaper cost; the parameters travel with each hash.
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = { log2N: 15, r: 8, p: 3 }

const KEY_LENGTH = 32
const SALT_LENGTH = 16

const derive = (password: string, salt: Buffer, cost: ScryptCost, length: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const N = 2 ** cost.log2N
    scrypt(password.normalize("NFKC"), salt, length, { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r }, (e, key) =>
      e ? reject(e) : resolve(key),
    )
  })

export const hashPassword = async (password: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<string> => {
  const salt = randomBytes(SALT_LENGTH)
  const hash = await derive(password, salt, cost, KEY_LENGTH)
  return ["scrypt", cost.log2N, cost.r, cost.p, salt.toString("base64"), hash.toString("base64")].join("$")
}

const PHC = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/

/** True when `password` matches `stored`; a malformed stored hash never matches. Constant-time compare. */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const m = PHC.exec(stored)
  if (m === null) return false
  const cost = { log2N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) }
  if (cost.log2N < 10 || cost.log2N > 20 || cost.r < 1 || cost.p < 1) return false
  const expected = Buffer.from(m[5] as string, "base64")
  const actual = await derive(password, Buffer.from(m[4] as string, "base64"), cost, expected.length)
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
