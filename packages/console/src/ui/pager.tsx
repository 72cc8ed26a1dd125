/**
 * Paging through a list that answers `nextCursor` (docs/contract.md §1): the cursors of the pages seen
 * are kept so that "Previous" goes back without the API having to page backwards.
 */
import { useState } from "preact/hooks"

export interface Paging {
  readonly cursor: string | undefined
  readonly page: number
  next(cursor: string): void
  previous(): void
  reset(): void
}

export const usePaging = (): Paging => {
  const [stack, setStack] = useState<Array<string | undefined>>([undefined])
  return {
    cursor: stack[stack.length - 1],
    page: stack.length,
    next: (cursor) => setStack((s) => [...s, cursor]),
    previous: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
    reset: () => setStack([undefined]),
  }
}

export const Pager = ({
  paging,
  nextCursor,
  label,
}: {
  paging: Paging
  nextCursor: string | null | undefined
  label: string
}) =>
  paging.page === 1 && (nextCursor === null || nextCursor === undefined) ? null : (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" class="secondary" disabled={paging.page === 1} onClick={() => paging.previous()}>
        Previous page
      </button>
      <span>Page {paging.page}</span>
      <button
        type="button"
        class="secondary"
        disabled={nextCursor === null || nextCursor === undefined}
        onClick={() => nextCursor && paging.next(nextCursor)}
      >
        Next page
      </button>
    </nav>
  )
