import { bytesToBase62 } from "./base62.ts"

/**
 * Ids are `<prefix>_` + 22 base62 characters encoding 128 random bits (62^22 > 2^128, so the
 * encoding is exact: every id stands for one 128-bit value and no value is likelier than another).
 */
export const ID_RANDOM_LENGTH = 22

const PREFIX = /^[a-z][a-z0-9]*$/

// One getRandomValues call per 256 ids instead of one per id (each call costs a microsecond or two).
const POOL_BYTES = 4096
let pool = new Uint8Array(0)
let poolOffset = 0

const random128 = (): Uint8Array => {
  if (poolOffset + 16 > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES))
    poolOffset = 0
  }
  const bytes = pool.subarray(poolOffset, poolOffset + 16)
  poolOffset += 16
  return bytes
}

export const newId = (prefix: string): string => {
  if (!PREFIX.test(prefix)) throw new RangeError(`newId: invalid prefix ${JSON.stringify(prefix)}`)
  return `${prefix}_${bytesToBase62(random128(), ID_RANDOM_LENGTH)}`
}

/** Whether `value` looks like an id of that prefix (format only; says nothing about existence). */
export const isId = (prefix: string, value: string): boolean =>
  value.length === prefix.length + 1 + ID_RANDOM_LENGTH &&
  value.startsWith(`${prefix}_`) &&
  /^[0-9A-Za-z]+$/.test(value.slice(prefix.length + 1))
