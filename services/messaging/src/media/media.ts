import type { MediaRecord, OrgId } from "@parley/contracts"
import { Database } from "@parley/db"
import { newId, sha256Hex } from "@parley/platform"
import { Effect } from "effect"

/**
 * Stores an upload in Postgres (bytea), with its digest: one store to back up, the same tenant
 * column as everything else, and 16 MiB is far below what bytea handles.
 */
export const storeMedia = (orgId: OrgId, contentType: string, bytes: Uint8Array) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const id = newId("med")
    const digest = sha256Hex(bytes)
    yield* Effect.promise(
      () => sql`
        insert into messaging.media (id, org_id, content_type, size, sha256, bytes)
        values (${id}, ${orgId}, ${contentType}, ${bytes.length}, ${digest}, ${Buffer.from(bytes)})`,
    )
    return { id, contentType, size: bytes.length, sha256: digest } satisfies MediaRecord
  })
