/**
 * Templates (docs/contract.md §14, §9): the message templates with the provider's status, quality and
 * category, and a new one submitted for approval (a body text, with {{1}}-style variables).
 */
import { useRef, useState } from "preact/hooks"
import { api, type paths, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import {
  definedOnly,
  type FieldErrors,
  focusFirstInvalid,
  issueErrors,
  SelectField,
  TextField,
} from "../../ui/fields.tsx"
import { codeInWords, formatTime, statusInWords } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { guarded, Page, Section, TableScroll } from "../../ui/page.tsx"

type Category = paths["/api/templates"]["post"]["requestBody"]["content"]["application/json"]["category"]

const statusBadge = (status: string) =>
  status === "APPROVED" ? "badge-ok" : status === "REJECTED" || status === "DISABLED" ? "badge-bad" : "badge-warn"

const CreateTemplate = ({ onCreated }: { onCreated: (name: string) => void }) => {
  const [name, setName] = useState("")
  const [language, setLanguage] = useState("en_US")
  const [category, setCategory] = useState<Category>("UTILITY")
  const [body, setBody] = useState("")
  const [errors, setErrors] = useState<FieldErrors>({})
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const submit = async (event: Event) => {
    event.preventDefault()
    const found: FieldErrors = {
      name: /^[a-z0-9_]+$/.test(name) ? undefined : "Lowercase letters, digits and _ only, like order_shipped.",
      language: /^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/.test(language) ? undefined : "A language code, like en_US.",
      body:
        body.trim() === "" ? "Write the message text." : body.length > 1024 ? "At most 1024 characters." : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const created = await action.run(() =>
      unwrap(
        api.POST("/api/templates", {
          body: { name, language, category, components: [{ type: "BODY", text: body }] },
        }),
      ),
    )
    if (created === undefined) return
    setName("")
    setBody("")
    onCreated(created.name)
  }
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} title="Not submitted." />
      <div class="row">
        <TextField label="Name" value={name} onValue={setName} error={shown.name} required spellcheck={false} />
        <TextField
          label="Language"
          value={language}
          onValue={setLanguage}
          error={shown.language}
          required
          spellcheck={false}
        />
        <SelectField
          label="Category"
          value={category}
          onValue={(value) => setCategory(value as Category)}
          options={[
            { value: "UTILITY", label: "Utility" },
            { value: "MARKETING", label: "Marketing" },
            { value: "AUTHENTICATION", label: "Authentication" },
          ]}
        />
      </div>
      <TextField
        label="Body"
        multiline
        rows={4}
        value={body}
        onValue={setBody}
        error={shown.body ?? shown.components}
        required
        hint="Variables are written {{1}}, {{2}}… and filled in when the template is sent."
      />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Submitting…" : "Submit for approval"}
      </button>
    </form>
  )
}

/**
 * The sandbox provider's decision (docs/contract.md §16): shown only while the cloud channel is a
 * sandbox. It reaches Parley as the provider's template update, so `template.status` fires.
 */
const SandboxDecision = ({
  id,
  name,
  status,
  onDecided,
}: {
  id: string
  name: string
  status: string
  onDecided: (message: string) => void
}) => {
  const action = useAction()
  const decide = async (decision: "APPROVED" | "REJECTED") => {
    const done = await action.run(() =>
      unwrap(
        api.POST("/api/sandbox/templates/{id}", {
          params: { path: { id } },
          body: decision === "REJECTED" ? { status: decision, reason: "INVALID_FORMAT" } : { status: decision },
        }),
      ),
    )
    if (done !== undefined)
      onDecided(`The sandbox provider ${decision === "APPROVED" ? "approved" : "rejected"} ${name}.`)
  }
  return (
    <div class="sandbox-decision">
      <button
        type="button"
        class="secondary"
        aria-label={`Approve ${name}`}
        disabled={action.pending || status === "APPROVED"}
        onClick={() => decide("APPROVED")}
      >
        Approve
      </button>
      <button
        type="button"
        class="secondary"
        aria-label={`Reject ${name}`}
        disabled={action.pending || status === "REJECTED"}
        onClick={() => decide("REJECTED")}
      >
        Reject
      </button>
      <ErrorNotice error={action.error} />
    </div>
  )
}

const TemplatesScreen = () => {
  const templates = useLoad(() => unwrap(api.GET("/api/templates")), [])
  const channels = useLoad(
    () => (may("GET /api/channels") ? unwrap(api.GET("/api/channels")) : Promise.resolve(undefined)),
    [],
  )
  const sandbox =
    may("POST /api/sandbox/templates/{id}") && channels.data?.data.some((c) => c.type === "cloud" && c.sandbox) === true
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const list = templates.data?.data ?? []
  return (
    <Page
      title="Templates"
      intro="Messages approved by the provider in advance: the only kind you may send to a customer who has not written in the last 24 hours, and what campaigns send."
    >
      {notice === undefined ? null : <StatusNotice>{notice}</StatusNotice>}
      <Section
        title="Your templates"
        actions={
          <button type="button" class="secondary" onClick={templates.reload} disabled={templates.loading}>
            Refresh
          </button>
        }
      >
        <ErrorNotice error={templates.error} />
        {templates.data === undefined && templates.loading ? (
          <Loading what="templates" />
        ) : list.length === 0 ? (
          <EmptyState title="No templates yet.">
            Submit one below; the provider approves or rejects it, usually within minutes. Connect the cloud channel
            first. In the sandbox (Channels) you decide yourself, with Approve or Reject.
          </EmptyState>
        ) : (
          <TableScroll label="Templates">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Language</th>
                  <th scope="col">Category</th>
                  <th scope="col">Status</th>
                  <th scope="col">Quality</th>
                  <th scope="col">Updated</th>
                  {sandbox ? <th scope="col">Sandbox provider</th> : null}
                </tr>
              </thead>
              <tbody>
                {list.map((template) => (
                  <tr key={template.id}>
                    <th scope="row">
                      <code>{template.name}</code>
                    </th>
                    <td>{template.language}</td>
                    <td>{template.category}</td>
                    <td>
                      <span class={`badge ${statusBadge(template.status)}`}>{statusInWords(template.status)}</span>
                      {codeInWords(template.reason) === "" ? null : (
                        <span class="muted"> {codeInWords(template.reason)}</span>
                      )}
                    </td>
                    <td>{template.qualityScore ?? "—"}</td>
                    <td class="nowrap">{formatTime(template.updatedAt)}</td>
                    {sandbox ? (
                      <td>
                        <SandboxDecision
                          id={template.id}
                          name={template.name}
                          status={template.status}
                          onDecided={(message) => {
                            setNotice(message)
                            templates.reload()
                          }}
                        />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Section>
      {may("POST /api/templates") ? (
        <Section title="Create a template">
          <CreateTemplate
            onCreated={(name) => {
              setNotice(`${name} was submitted; it is pending until the provider decides.`)
              templates.reload()
            }}
          />
        </Section>
      ) : null}
    </Page>
  )
}

export const Templates = guarded(() => may("GET /api/templates"), "Templates", TemplatesScreen)
