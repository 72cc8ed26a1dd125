/**
 * Changing one's own password (`PUT /api/auth/password`): the current one, the new one twice. The
 * new one follows the rules of a member's (at least 10 characters, not easy to guess — the API says
 * which); every other session of the person ends, this one stays.
 */
import { useRef, useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { definedOnly, type FieldErrors, focusFirstInvalid, issueErrors, TextField } from "../../ui/fields.tsx"
import { useAction } from "../../ui/hooks.ts"
import { ErrorNotice, StatusNotice } from "../../ui/notice.tsx"

/**
 * The API's refusals of this form, said at the field they concern in a sentence (the API names
 * its fields: `currentPassword is not your current password`). A refusal of another kind (a
 * rate limit, a server error) stays in the notice under the button.
 */
const FIELD_SENTENCES: Readonly<Record<string, (message: string) => string>> = {
  currentPassword: () => "Your current password is not right.",
  newPassword: (message) => `This password ${message}.`,
}

const fieldErrorsOf = (issues: ReadonlyArray<{ path: string; message: string }>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(issueErrors(issues)).flatMap(([field, message]) => {
      const sentence = FIELD_SENTENCES[field]
      return sentence === undefined ? [] : [[field, sentence(message)]]
    }),
  )

export const ChangePassword = () => {
  const [current, setCurrent] = useState("")
  const [next, setNext] = useState("")
  const [again, setAgain] = useState("")
  const [errors, setErrors] = useState<FieldErrors>({})
  const [changed, setChanged] = useState(false)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const fromApi = fieldErrorsOf(action.error?.issues ?? [])
  const shown = { ...fromApi, ...definedOnly(errors) }
  // Said at its field already: the notice would only repeat it in the API's words.
  const issues = action.error?.issues ?? []
  const onlyAtFields = issues.length > 0 && issues.every((issue) => FIELD_SENTENCES[issue.path] !== undefined)
  const submit = async (event: Event) => {
    event.preventDefault()
    setChanged(false)
    const found: FieldErrors = {
      currentPassword: current === "" ? "Enter your current password." : undefined,
      newPassword: next.length < 10 ? "At least 10 characters." : undefined,
      again: again !== next ? "The two new passwords differ." : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const done = await action.run(async () => {
      await unwrap(api.PUT("/api/auth/password", { body: { currentPassword: current, newPassword: next } }))
      return true
    })
    if (done === undefined) return focusFirstInvalid(form.current)
    setCurrent("")
    setNext("")
    setAgain("")
    setChanged(true)
  }
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <div class="row row-top">
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onValue={setCurrent}
          error={shown.currentPassword}
          required
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onValue={setNext}
          error={shown.newPassword}
          required
          hint="At least 10 characters, not easy to guess."
        />
        <TextField
          label="New password again"
          type="password"
          autoComplete="new-password"
          value={again}
          onValue={setAgain}
          error={shown.again}
          required
        />
      </div>
      <div class="form-end">
        <button type="submit" class="primary" disabled={action.pending}>
          {action.pending ? "Changing…" : "Change password"}
        </button>
        <ErrorNotice error={onlyAtFields ? undefined : action.error} title="Not changed." />
        {changed ? (
          <StatusNotice>
            Your password is changed. Your other sessions have ended; this one stays signed in.
          </StatusNotice>
        ) : null}
      </div>
    </form>
  )
}
