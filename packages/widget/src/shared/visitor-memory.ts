/**
 * What the widget remembers in the visitor's browser, per widget key (named by the key's public
 * prefix, so that two Parley widgets on one site keep apart): in `localStorage` the session id, the
 * messages not yet accepted by Parley and the unsent draft — so that a reload, a navigation or a lost
 * network loses nothing the visitor typed —; in `sessionStorage` whether the panel was open in this
 * tab. Storage can be missing or refuse writes (a sandboxed frame, a full quota, some privacy modes):
 * then the widget works for the page's lifetime and remembers nothing.
 */

/** `parley_<prefix>.<secret>` → `<prefix>` (docs/contract.md §2.1). */
export const keyPrefix = (key: string): string => /^parley_([A-Za-z0-9]+)\./.exec(key)?.[1] ?? "default"

export interface StoredValue {
  readonly read: () => string | undefined
  readonly write: (value: string | undefined) => void
}

const storageOf = (kind: "localStorage" | "sessionStorage"): Storage | undefined => {
  try {
    return window[kind]
  } catch {
    return undefined
  }
}

export const storedValue = (kind: "localStorage" | "sessionStorage", key: string, name: string): StoredValue => {
  const item = `parley:${keyPrefix(key)}:${name}`
  return {
    read: () => {
      try {
        return storageOf(kind)?.getItem(item) ?? undefined
      } catch {
        return undefined
      }
    },
    write: (value) => {
      try {
        if (value === undefined) storageOf(kind)?.removeItem(item)
        else storageOf(kind)?.setItem(item, value)
      } catch {
        // Remembering is best-effort; the conversation goes on in memory.
      }
    },
  }
}
