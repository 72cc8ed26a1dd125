/**
 * A template sent to one customer (docs/contract.md §9): what the Messages screen offers when the
 * customer-service window is closed, since templates are not limited by it. Each of the body's
 * `{{1}}`…`{{n}}` gets a field, and the message shows as the customer will read it.
 */
import { useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { SelectField, TextField } from "../../ui/fields.tsx"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { renderBody, variableCount } from "../campaigns/template-body.ts"

export const SendTemplate = ({ to, onSent }: { to: string; onSent: () => void }) => {
  const templates = useLoad(() => unwrap(api.GET("/api/templates")), [])
  const usable = (templates.data?.data ?? []).filter((t) => t.status === "APPROVED")
  const [choice, setChoice] = useState("")
  const [values, setValues] = useState<Array<string>>([])
  const [sent, setSent] = useState<string | undefined>(undefined)
  const action = useAction()
  const chosen = usable.find((t) => `${t.name}|${t.language}` === choice) ?? usable[0]
  if (templates.data === undefined) {
    return templates.error === undefined ? <Loading what="templates" /> : <ErrorNotice error={templates.error} />
  }
  if (chosen === undefined) {
    return (
      <EmptyState title="No approved template yet.">
        <a href="/console/templates">Create one on the Templates screen</a>.
      </EmptyState>
    )
  }
  const needed = variableCount(chosen.components)
  const variables = Array.from({ length: needed }, (_, i) => values[i] ?? "")
  const submit = async (event: Event) => {
    event.preventDefault()
    setSent(undefined)
    const answer = await action.run(() =>
      unwrap(
        api.POST("/api/messages", {
          body: { to: to.trim(), template: { name: chosen.name, language: chosen.language, variables } },
        }),
      ),
    )
    if (answer === undefined) return
    setSent(`Template sent (provider id ${answer.messageId}).`)
    onSent()
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Send a template">
      <ErrorNotice error={action.error} title="Not sent." />
      {sent === undefined ? null : <StatusNotice>{sent}</StatusNotice>}
      <SelectField
        label="Approved template"
        value={`${chosen.name}|${chosen.language}`}
        onValue={(value) => {
          setChoice(value)
          setValues([])
        }}
        options={usable.map((t) => ({ value: `${t.name}|${t.language}`, label: `${t.name} (${t.language})` }))}
      />
      {variables.map((value, i) => (
        <TextField
          key={`${chosen.name}-${i}`}
          label={`Value of {{${i + 1}}}`}
          value={value}
          onValue={(next) => setValues(variables.map((v, j) => (j === i ? next : v)))}
          required
        />
      ))}
      <blockquote class="message-preview" aria-label="Template preview">
        {renderBody(chosen.components, variables)}
      </blockquote>
      <button type="submit" class="primary" disabled={action.pending || to.trim() === ""}>
        {action.pending ? "Sending…" : "Send template"}
      </button>
    </form>
  )
}
