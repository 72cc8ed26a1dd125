/** Creating an API key (docs/contract.md §4): name, scopes (widget or server explained), allowed origins. */
import { useRef, useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import {
  CheckboxGroup,
  definedOnly,
  type FieldErrors,
  focusFirstInvalid,
  issueErrors,
  TextField,
} from "../../ui/fields.tsx"
import { useAction } from "../../ui/hooks.ts"
import { ErrorNotice } from "../../ui/notice.tsx"
import { keyKind, SCOPES, type Scope } from "./scopes.ts"

/** `https://host[:port]`, as the contract takes it (§2.1); plain http is refused, even on localhost. */
export const isAllowedOrigin = (candidate: string): boolean => {
  if (!/^https:\/\/[^/?#@*\s]+\/?$/i.test(candidate)) return false
  try {
    const url = new URL(candidate)
    return url.protocol === "https:" && url.username === "" && url.password === "" && url.hostname !== ""
  } catch {
    return false
  }
}

export const parseOrigins = (text: string): Array<string> =>
  text
    .split(/[\s,]+/)
    .map((line) => line.trim())
    .filter((line) => line !== "")

export const CreateKeyForm = ({
  onCreated,
  initialScopes = ["chat:write", "chat:read", "bookings:read", "bookings:write"],
  submitLabel = "Create key",
}: {
  onCreated: (created: Answer<"/api/org/api-keys", "post">) => void
  initialScopes?: ReadonlyArray<Scope>
  submitLabel?: string
}) => {
  const [name, setName] = useState("")
  const [scopes, setScopes] = useState<Array<Scope>>([...initialScopes])
  const [origins, setOrigins] = useState("")
  const [errors, setErrors] = useState<FieldErrors>({})
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const kind = keyKind(scopes)
  // The API's own findings (`issues`) mark the fields too, under what the form found itself.
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }

  const submit = async (event: Event) => {
    event.preventDefault()
    const allowedOrigins = parseOrigins(origins)
    const bad = allowedOrigins.find((origin) => !isAllowedOrigin(origin))
    const found: FieldErrors = {
      name: name.trim() === "" ? "Give the key a name." : name.length > 100 ? "At most 100 characters." : undefined,
      allowedOrigins:
        bad !== undefined
          ? `${bad} is not an https://host[:port] origin (no path, no wildcard).`
          : allowedOrigins.length > 20
            ? "At most 20 origins."
            : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    // Scopes in the order the contract lists them, so the record reads the same every time.
    const ordered = SCOPES.map((s) => s.value).filter((s) => scopes.includes(s))
    const created = await action.run(() =>
      unwrap(
        api.POST("/api/org/api-keys", {
          body: {
            name: name.trim(),
            ...(ordered.length === 0 ? {} : { scopes: ordered }),
            ...(allowedOrigins.length === 0 ? {} : { allowedOrigins }),
          },
        }),
      ),
    )
    if (created === undefined) return
    // The next key starts from the defaults again: a key made after a server key must not
    // silently become one (messages:send still ticked).
    setName("")
    setScopes([...initialScopes])
    setOrigins("")
    onCreated(created)
  }

  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} />
      <TextField
        label="Name"
        value={name}
        onValue={setName}
        error={shown.name}
        required
        hint="Where you will use it: “Website chat”, “CRM sync”."
      />
      <CheckboxGroup
        legend="Scopes"
        options={SCOPES}
        selected={scopes}
        onSelected={setScopes}
        hint="The four widget scopes make a key that is safe in a web page. messages:send makes a server key. No scope at all makes a full-access key."
      />
      <p class={`notice ${kind.kind === "widget" ? "notice-ok" : "warning"}`} aria-live="polite">
        {kind.text}
      </p>
      <TextField
        label="Allowed origins"
        multiline
        rows={3}
        value={origins}
        onValue={setOrigins}
        error={shown.allowedOrigins}
        placeholder="https://www.example.com"
        spellcheck={false}
        hint="One per line. A browser may use the key only from these origins (https://host[:port]); leave empty to allow any. Calls from servers are not affected."
      />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Creating…" : submitLabel}
      </button>
    </form>
  )
}
