/**
 * How much room a partition's window needs before its consumer fetches again: half the window, at
 * most 64 records. Fetching in batches rather than one record per finished one spares the backend a
 * query (Postgres) or a refetch of a batch it mostly throws away (Kafka); the cap keeps a window
 * mostly held by slow records fetching for the rest.
 */
export const roomToRefill = (window: number): number => Math.max(1, Math.min(Math.ceil(window / 2), 64))
