/**
 * Settings → API keys (docs/contract.md §14, §4): every key with its scopes, origins and use, revoked
 * ones included; a new key shown once with a copy button; revocation after a confirmation.
 */
import { useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { ConfirmButton } from "../../ui/confirm.tsx"
import { formatTime } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { guarded, Page, Section, TableScroll } from "../../ui/page.tsx"
import { CopyField, ShownOnce } from "../../ui/secret.tsx"
import { CreateKeyForm } from "./create-key.tsx"
import { keyKind } from "./scopes.ts"

type KeyRecord = Answer<"/api/org/api-keys/{id}", "get">

/**
 * One key. Its name and prefix share a cell, so do its times, and its scopes wrap as badges, so that
 * seven facts and the Revoke button fit a laptop's width without scrolling; the prefix never breaks.
 */
const KeyRow = ({ record, onRevoke }: { record: KeyRecord; onRevoke: (record: KeyRecord) => void }) => (
  <tr>
    <th scope="row" class="wraps">
      <span class="stacked">
        <span class="wraps">{record.name}</span>
        <span>
          <code class="token" title="The key's public prefix">
            {record.prefix}
          </code>
        </span>
      </span>
    </th>
    <td>
      <span class="badges">
        {record.scopes.length === 0 ? (
          <span class="badge badge-warn">full access</span>
        ) : (
          <>
            <span class={`badge ${keyKind(record.scopes).kind === "widget" ? "badge-ok" : "badge-warn"}`}>
              {keyKind(record.scopes).kind}
            </span>
            {record.scopes.map((scope) => (
              <code key={scope} class="token">
                {scope}
              </code>
            ))}
          </>
        )}
      </span>
    </td>
    <td>{record.allowedOrigins.length === 0 ? <span class="muted">any</span> : record.allowedOrigins.join(", ")}</td>
    <td>
      <span class="stacked">
        <span class="wraps">
          Created <span class="nowrap">{formatTime(record.createdAt)}</span>
        </span>
        <span class="wraps muted">
          {record.lastUsedAt === null ? (
            "Never used"
          ) : (
            <>
              Last used <span class="nowrap">{formatTime(record.lastUsedAt)}</span>
            </>
          )}
        </span>
      </span>
    </td>
    <td>
      {record.revokedAt === null ? (
        may("DELETE /api/org/api-keys/{id}") ? (
          <ConfirmButton
            label="Revoke"
            accessibleLabel={`Revoke ${record.name}`}
            title={`Revoke “${record.name}”?`}
            confirmLabel="Revoke key"
            danger
            onConfirm={() => onRevoke(record)}
          >
            <p>
              Every request with the key <code class="token">{record.prefix}</code> is refused within a second, on every
              gateway. This cannot be undone.
            </p>
          </ConfirmButton>
        ) : (
          "active"
        )
      ) : (
        <span class="stacked">
          <span>
            <span class="badge badge-bad">revoked</span>
          </span>
          <span class="wraps muted">
            <span class="nowrap">{formatTime(record.revokedAt)}</span>
          </span>
        </span>
      )}
    </td>
  </tr>
)

const ApiKeysScreen = () => {
  const keys = useLoad(() => unwrap(api.GET("/api/org/api-keys")), [])
  const [created, setCreated] = useState<Answer<"/api/org/api-keys", "post"> | undefined>(undefined)
  const [revoked, setRevoked] = useState<string | undefined>(undefined)
  const revoke = useAction()
  const list = keys.data?.data ?? []

  const onRevoke = async (record: KeyRecord) => {
    setRevoked(undefined)
    const done = await revoke.run(() =>
      unwrap(api.DELETE("/api/org/api-keys/{id}", { params: { path: { id: record.id } } })),
    )
    if (done !== undefined) {
      setRevoked(`The key “${done.name}” is revoked.`)
      keys.reload()
    }
  }

  return (
    <Page
      title="API keys"
      intro="Keys let your website's chat widget and your own servers use Parley. At most 10 keys are active at once."
    >
      {created === undefined ? null : (
        <ShownOnce kept="digest" title={`Your new key “${created.name}”`} onDone={() => setCreated(undefined)}>
          <CopyField label="API key" value={created.key} />
        </ShownOnce>
      )}
      {revoked === undefined ? null : <StatusNotice>{revoked}</StatusNotice>}
      <ErrorNotice error={revoke.error} title="The key was not revoked." />
      <Section title="Keys">
        <ErrorNotice error={keys.error} />
        {keys.data === undefined && keys.loading ? (
          <Loading what="keys" />
        ) : list.length === 0 ? (
          <EmptyState title="No keys yet.">
            Create one below: a widget key for your website, or a server key.
          </EmptyState>
        ) : (
          <TableScroll label="API keys">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name and prefix</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Allowed origins</th>
                  <th scope="col">Use</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {list.map((record) => (
                  <KeyRow key={record.id} record={record} onRevoke={onRevoke} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Section>
      {may("POST /api/org/api-keys") ? (
        <Section title="Create a key">
          <CreateKeyForm
            onCreated={(key) => {
              setCreated(key)
              keys.reload()
            }}
          />
        </Section>
      ) : null}
    </Page>
  )
}

export const ApiKeys = guarded(() => may("GET /api/org/api-keys"), "API keys", ApiKeysScreen)
