/**
 * The widget key the snippet and the preview use. The console never knows a key's secret part
 * (§2.1: shown once, stored as a digest), so the person pastes the key they kept, or creates a
 * new widget key here and sees it once. It stays in this page's memory only.
 */
import { useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { SelectField, TextField } from "../../ui/fields.tsx"
import { useLoad } from "../../ui/hooks.ts"
import { ErrorNotice } from "../../ui/notice.tsx"
import { CopyField, ShownOnce } from "../../ui/secret.tsx"
import { CreateKeyForm } from "../api-keys/create-key.tsx"

export interface WidgetKeyChoice {
  /** The full key when the person gave it, else undefined. */
  readonly key: string | undefined
  /** The chosen key's public prefix, for a snippet with a placeholder. */
  readonly prefix: string | undefined
}

const KEY_SHAPE = /^parley_([0-9A-Za-z]{12})\.[0-9A-Za-z]{49}$/

export const WidgetKey = ({ onChoice }: { onChoice: (choice: WidgetKeyChoice) => void }) => {
  const keys = useLoad(() => unwrap(api.GET("/api/org/api-keys")), [])
  const [prefix, setPrefix] = useState<string | undefined>(undefined)
  const [pasted, setPasted] = useState("")
  const [created, setCreated] = useState<string | undefined>(undefined)
  const [creating, setCreating] = useState(false)
  const widgetKeys = (keys.data?.data ?? []).filter(
    (k) => k.revokedAt === null && k.scopes.includes("chat:write") && !k.scopes.includes("messages:send"),
  )
  const chosen = prefix ?? widgetKeys[0]?.prefix
  const pastedPrefix = KEY_SHAPE.exec(pasted.trim())?.[1]
  const problem =
    pasted.trim() === ""
      ? undefined
      : pastedPrefix === undefined
        ? "That is not a Parley key (parley_<prefix>.<secret>)."
        : chosen !== undefined && pastedPrefix !== chosen
          ? `That key's prefix is ${pastedPrefix}, not ${chosen}.`
          : undefined
  const choose = (nextPrefix: string | undefined, nextKey: string) => {
    const match = KEY_SHAPE.exec(nextKey.trim())
    onChoice({
      key: match !== null && (nextPrefix === undefined || match[1] === nextPrefix) ? nextKey.trim() : undefined,
      prefix: nextPrefix ?? match?.[1],
    })
  }

  return (
    <div>
      <ErrorNotice error={keys.error} />
      {created === undefined ? null : (
        <ShownOnce kept="digest" title="Your new widget key" onDone={() => setCreated(undefined)}>
          <CopyField label="Widget key" value={created} />
        </ShownOnce>
      )}
      {widgetKeys.length === 0 ? (
        <p>You have no widget key yet (a key with chat:write and without messages:send).</p>
      ) : (
        <div class="row">
          <SelectField
            label="Widget key"
            value={chosen ?? ""}
            onValue={(value) => {
              setPrefix(value)
              setPasted("")
              choose(value, "")
            }}
            options={widgetKeys.map((k) => ({ value: k.prefix, label: `${k.name} (${k.prefix})` }))}
          />
          <TextField
            label="The full key"
            type="password"
            autoComplete="off"
            value={pasted}
            onValue={(value) => {
              setPasted(value)
              choose(chosen, value)
            }}
            error={problem}
            spellcheck={false}
            hint="Paste the key you kept when it was created: the embed snippet needs all of it (the preview needs no key)."
          />
        </div>
      )}
      {may("POST /api/org/api-keys") ? (
        creating ? (
          <CreateKeyForm
            submitLabel="Create widget key"
            onCreated={(key) => {
              setCreating(false)
              setCreated(key.key)
              setPrefix(key.prefix)
              setPasted(key.key)
              keys.reload()
              choose(key.prefix, key.key)
            }}
          />
        ) : (
          <button type="button" class="secondary" onClick={() => setCreating(true)}>
            Create a widget key
          </button>
        )
      ) : null}
    </div>
  )
}

/** The tag of §15 for a key (or its prefix with a placeholder for the secret part). */
export const widgetSnippet = (origin: string, choice: WidgetKeyChoice): string =>
  `<script src="${origin}/widget.js" data-parley-key="${choice.key ?? (choice.prefix === undefined ? "<widget key>" : `parley_${choice.prefix}.<the rest of the key>`)}" async></script>`
