/**
 * Starting a campaign in two steps (docs/contract.md §14): the list (pasted, or a CSV file with a column
 * per template variable) is first checked by Parley with `dryRun` — the counts of who will receive
 * it, of unreadable numbers, repeats and opted-out customers, and the message as the first
 * recipient will read it — and only a confirmation starts the sending.
 */
import { useRef, useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import {
  definedOnly,
  type FieldErrors,
  focusFirstInvalid,
  issueErrors,
  SelectField,
  TextField,
} from "../../ui/fields.tsx"
import { countOf, formatNumber } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading } from "../../ui/notice.tsx"
import { CSV_LIMIT_BYTES, recipientsFromCsv, recipientsFromText } from "./recipients.ts"
import { renderBody, variableCount } from "./template-body.ts"

type Template = Answer<"/api/templates", "get">["data"][number]
interface Counts {
  totalRecipients: number
  duplicates: number
  optedOut: number
  invalid: ReadonlyArray<{ index: number; input: string; error: string }>
}
interface Review {
  counts: Counts
  preview: string
  body: {
    name: string
    template: { name: string; language: string }
    recipients: Array<{ phone: string; variables: Array<string> }>
  }
}

const Review = ({
  review,
  onBack,
  onStarted,
}: {
  review: Review
  onBack: () => void
  onStarted: (id: string) => void
}) => {
  const action = useAction()
  const { counts } = review
  const confirm = async () => {
    const started = await action.run(() => unwrap(api.POST("/api/campaigns", { body: review.body })))
    if (started !== undefined) onStarted(started.id)
  }
  return (
    <fieldset class="panel review" aria-label="Review the campaign">
      <h3>Review “{review.body.name}”</h3>
      <ErrorNotice error={action.error} title="Not started." />
      <ul class="counts">
        <li>
          <strong>{formatNumber(counts.totalRecipients)}</strong> will receive it
        </li>
        <li>{formatNumber(counts.invalid.length)} invalid</li>
        <li>{countOf(counts.duplicates, "duplicate", "duplicates")} (sent once)</li>
        <li>{formatNumber(counts.optedOut)} opted out (left out)</li>
      </ul>
      {counts.invalid.length === 0 ? null : (
        <details>
          <summary>Numbers that cannot be read</summary>
          <ul>
            {counts.invalid.slice(0, 50).map((bad) => (
              <li key={bad.index}>
                Line {bad.index + 1}: “{bad.input}” — {bad.error}
              </li>
            ))}
          </ul>
        </details>
      )}
      <p class="hint">The message, as the first recipient will read it:</p>
      <blockquote class="message-preview" aria-label="Message preview">
        {review.preview}
      </blockquote>
      <div class="row">
        <button
          type="button"
          class="primary"
          onClick={confirm}
          disabled={action.pending || counts.totalRecipients === 0}
        >
          {action.pending ? "Starting…" : `Send to ${countOf(counts.totalRecipients, "recipient", "recipients")}`}
        </button>
        <button type="button" class="secondary" onClick={onBack}>
          Back to edit
        </button>
      </div>
    </fieldset>
  )
}

export const CreateCampaign = ({ onStarted }: { onStarted: (id: string) => void }) => {
  const templates = useLoad(() => unwrap(api.GET("/api/templates")), [])
  const usable = (templates.data?.data ?? []).filter((t) => t.status === "APPROVED")
  const [name, setName] = useState("")
  const [template, setTemplate] = useState("")
  const [pasted, setPasted] = useState("")
  const [file, setFile] = useState<{ name: string; text: string } | undefined>(undefined)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [review, setReview] = useState<Review | undefined>(undefined)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const chosen: Template | undefined = usable.find((t) => `${t.name}|${t.language}` === template) ?? usable[0]
  const variables = chosen === undefined ? 0 : variableCount(chosen.components)
  const fromFile = file === undefined ? undefined : recipientsFromCsv(file.text, variables)
  const recipients = [
    ...recipientsFromText(pasted, variables),
    ...(fromFile !== undefined && "recipients" in fromFile ? fromFile.recipients : []),
  ]

  const readFile = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement
    const chosenFile = input.files?.[0]
    if (chosenFile === undefined) return setFile(undefined)
    if (chosenFile.size > CSV_LIMIT_BYTES) {
      input.value = ""
      setFile(undefined)
      return setErrors({ file: `${chosenFile.name} is over 4 MiB, the most one campaign takes: split it.` })
    }
    setErrors({ ...errors, file: undefined })
    setFile({ name: chosenFile.name, text: await chosenFile.text() })
  }
  const check = async (event: Event) => {
    event.preventDefault()
    const missing = recipients.findIndex((r) => r.variables.filter((v) => v !== "").length < variables)
    const found: FieldErrors = {
      name: name.trim() === "" ? "Name the campaign." : undefined,
      template: chosen === undefined ? "Choose an approved template." : undefined,
      file: fromFile !== undefined && "error" in fromFile ? fromFile.error : errors.file,
      recipients:
        recipients.length === 0
          ? "Paste numbers or choose a CSV file."
          : recipients.length > 100_000
            ? "At most 100,000 recipients."
            : missing >= 0
              ? `${recipients[missing]?.phone} needs ${variables === 1 ? "a value for {{1}}" : `${variables} values, for {{1}}…{{${variables}}}`} after the number.`
              : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean) || chosen === undefined) return focusFirstInvalid(form.current)
    const body = {
      name: name.trim(),
      template: { name: chosen.name, language: chosen.language },
      recipients: recipients.map((r) => ({ phone: r.phone, variables: [...r.variables] })),
    }
    const counts = await action.run(() => unwrap(api.POST("/api/campaigns", { body: { ...body, dryRun: true } })))
    if (counts === undefined) return
    setReview({
      counts: counts as unknown as Counts,
      preview: renderBody(chosen.components, recipients[0]?.variables ?? []),
      body,
    })
  }

  if (templates.data === undefined) {
    return templates.error === undefined ? <Loading what="templates" /> : <ErrorNotice error={templates.error} />
  }
  if (usable.length === 0) {
    return (
      <EmptyState title="No approved template yet.">
        A campaign sends a template the provider approved.{" "}
        <a href="/console/templates">Create one on the Templates screen</a>.
      </EmptyState>
    )
  }
  if (review !== undefined) {
    return (
      <Review
        review={review}
        onBack={() => setReview(undefined)}
        onStarted={(id) => {
          setReview(undefined)
          setName("")
          setPasted("")
          setFile(undefined)
          onStarted(id)
        }}
      />
    )
  }
  const fileProblem = shown.file ?? (fromFile !== undefined && "error" in fromFile ? fromFile.error : undefined)
  const placeholders = Array.from({ length: variables }, (_, i) => `{{${i + 1}}}`).join(", ")
  return (
    <form ref={form} onSubmit={check} noValidate>
      <ErrorNotice error={action.error} title="Not checked." />
      <div class="row">
        <TextField label="Campaign name" value={name} onValue={setName} error={shown.name} required />
        <SelectField
          label="Template"
          value={chosen === undefined ? "" : `${chosen.name}|${chosen.language}`}
          onValue={setTemplate}
          error={shown.template}
          options={usable.map((t) => ({ value: `${t.name}|${t.language}`, label: `${t.name} (${t.language})` }))}
        />
      </div>
      <TextField
        label="Recipients"
        multiline
        rows={5}
        value={pasted}
        onValue={setPasted}
        error={shown.recipients}
        placeholder={variables === 0 ? "(415) 555-0100\n+44 7700 900456" : "(415) 555-0100, Dana\n+44 7700 900456, Lee"}
        hint={
          variables === 0
            ? "Paste phone numbers, one per line (or separated by commas). National numbers are read with your organization's country."
            : `One recipient per line: the number, then the values of ${placeholders}, separated by commas.`
        }
      />
      <div class="field">
        <label for="campaign-file">Or a CSV file</label>
        <input
          id="campaign-file"
          type="file"
          accept=".csv,text/csv"
          onChange={readFile}
          aria-describedby="campaign-file-hint"
          aria-invalid={fileProblem === undefined ? undefined : "true"}
        />
        <p class="hint" id="campaign-file-hint">
          {file === undefined || fromFile === undefined || "error" in fromFile
            ? `A phone column${variables === 0 ? "" : ` and a column per variable, named ${Array.from({ length: variables }, (_, i) => i + 1).join(", ")}`}; at most 4 MiB.`
            : `${file.name}: ${countOf(fromFile.recipients.length, "recipient", "recipients")}.`}
        </p>
        {fileProblem === undefined ? null : <p class="field-error">{fileProblem}</p>}
      </div>
      <p>{countOf(recipients.length, "line", "lines")} to check.</p>
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Checking…" : "Review campaign"}
      </button>
    </form>
  )
}
