/**
 * Campaigns (CONTRACT.md §14, §9): a template sent to pasted numbers or a CSV file's, and each
 * campaign's progress read every two seconds until it is `completed`. The contract has no route
 * listing campaigns, so the console remembers (in this browser, per organization) the ones created
 * here, and opens any other by its id.
 */
import { useRef, useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import { may, session } from "../../session.ts"
import {
  definedOnly,
  type FieldErrors,
  focusFirstInvalid,
  issueErrors,
  SelectField,
  TextField,
} from "../../ui/fields.tsx"
import { count, formatNumber, formatTime } from "../../ui/format.ts"
import { useAction, useInterval, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { guarded, Page, Section } from "../../ui/page.tsx"
import { isPhone, recipientsFromCsv, recipientsFromText } from "./recipients.ts"

type Campaign = Answer<"/api/campaigns/{id}", "get">

const storageKey = () => `parley.console.campaigns.${session.value?.organization.id ?? ""}`
const remembered = (): Array<string> => {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem(storageKey()) ?? "[]")
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : []
  } catch {
    return []
  }
}
const remember = (ids: ReadonlyArray<string>) => localStorage.setItem(storageKey(), JSON.stringify(ids.slice(0, 50)))

const Progress = ({ id, onForget }: { id: string; onForget: () => void }) => {
  const campaign = useLoad(() => unwrap(api.GET("/api/campaigns/{id}", { params: { path: { id } } })), [id])
  const data: Campaign | undefined = campaign.data
  useInterval(campaign.reload, 2000, data?.status === "running" && campaign.error === undefined)
  const done = data === undefined ? 0 : count(data.sent) + count(data.failed)
  return (
    <article class="panel" aria-label={data?.name ?? id}>
      <div class="panel-head">
        <h3>{data?.name ?? id}</h3>
        <button type="button" class="link" onClick={onForget}>
          Hide <span class="visually-hidden">{data?.name ?? id}</span>
        </button>
      </div>
      <ErrorNotice error={campaign.error} />
      {data === undefined ? (
        campaign.error === undefined ? (
          <Loading what="the campaign" />
        ) : null
      ) : (
        <>
          <p>
            <span class={`badge ${data.status === "completed" ? "badge-ok" : "badge-warn"}`}>{data.status}</span>{" "}
            {data.completedAt === null ? null : `at ${formatTime(data.completedAt)}`}
          </p>
          <progress max={count(data.totalRecipients)} value={done} aria-label={`${data.name} progress`} />
          <p role="status">
            {formatNumber(done)} of {formatNumber(count(data.totalRecipients))} attempted:{" "}
            {formatNumber(count(data.sent))} sent, {formatNumber(count(data.failed))} failed.
          </p>
          <p class="hint">
            Id <code>{data.id}</code>
          </p>
        </>
      )}
    </article>
  )
}

const CreateCampaign = ({ onStarted }: { onStarted: (id: string) => void }) => {
  const templates = useLoad(() => unwrap(api.GET("/api/templates")), [])
  const usable = (templates.data?.data ?? []).filter((t) => t.status === "APPROVED")
  const [name, setName] = useState("")
  const [template, setTemplate] = useState("")
  const [pasted, setPasted] = useState("")
  const [fromFile, setFromFile] = useState<{ name: string; numbers: Array<string> } | undefined>(undefined)
  const [errors, setErrors] = useState<FieldErrors>({})
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const chosen = usable.find((t) => `${t.name}|${t.language}` === template) ?? usable[0]
  const recipients = [...recipientsFromText(pasted), ...(fromFile?.numbers ?? [])]

  const readFile = async (event: Event) => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0]
    if (file === undefined) return setFromFile(undefined)
    setFromFile({ name: file.name, numbers: recipientsFromCsv(await file.text()) })
  }
  const submit = async (event: Event) => {
    event.preventDefault()
    const bad = recipients.find((r) => !isPhone(r))
    const found: FieldErrors = {
      name: name.trim() === "" ? "Name the campaign." : undefined,
      template: chosen === undefined ? "Choose an approved template." : undefined,
      recipients:
        recipients.length === 0
          ? "Paste numbers or choose a CSV file."
          : bad !== undefined
            ? `“${bad}” is not a phone number.`
            : recipients.length > 100_000
              ? "At most 100,000 recipients."
              : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean) || chosen === undefined) return focusFirstInvalid(form.current)
    const started = await action.run(() =>
      unwrap(
        api.POST("/api/campaigns", {
          body: { name: name.trim(), template: { name: chosen.name, language: chosen.language }, recipients },
        }),
      ),
    )
    if (started === undefined) return
    setName("")
    setPasted("")
    setFromFile(undefined)
    onStarted(started.id)
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
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} title="Not started." />
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
        placeholder={"+1 415 555 0100\n+44 7700 900456"}
        hint="Paste phone numbers, one per line (or separated by commas)."
      />
      <div class="field">
        <label for="campaign-file">Or a CSV file</label>
        <input
          id="campaign-file"
          type="file"
          accept=".csv,text/csv"
          onChange={readFile}
          aria-describedby="campaign-file-hint"
        />
        <p class="hint" id="campaign-file-hint">
          {fromFile === undefined
            ? "With a phone column (and optionally name), as the contacts import takes."
            : `${fromFile.name}: ${formatNumber(fromFile.numbers.length)} numbers.`}
        </p>
      </div>
      <p>{formatNumber(recipients.length)} recipients.</p>
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Starting…" : "Start campaign"}
      </button>
    </form>
  )
}

const CampaignsScreen = () => {
  const [ids, setIds] = useState<Array<string>>(remembered)
  const [lookup, setLookup] = useState("")
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const update = (next: Array<string>) => {
    setIds(next)
    remember(next)
  }
  const open = (event: Event) => {
    event.preventDefault()
    const id = lookup.trim()
    if (id === "") return
    update([id, ...ids.filter((x) => x !== id)])
    setLookup("")
  }
  return (
    <Page
      title="Campaigns"
      intro="Send an approved template to many customers at once, and follow it until every one was attempted."
    >
      {notice === undefined ? null : <StatusNotice>{notice}</StatusNotice>}
      <Section title="Progress">
        {ids.length === 0 ? (
          <EmptyState title="No campaigns here yet.">Start one below, or open one by its id.</EmptyState>
        ) : (
          ids.map((id) => <Progress key={id} id={id} onForget={() => update(ids.filter((x) => x !== id))} />)
        )}
        <form class="row" onSubmit={open} noValidate>
          <TextField
            label="Open a campaign by id"
            value={lookup}
            onValue={setLookup}
            placeholder="cmp_…"
            spellcheck={false}
          />
          <div class="field">
            <button type="submit" class="secondary">
              Open
            </button>
          </div>
        </form>
      </Section>
      {may("POST /api/campaigns") ? (
        <Section title="Start a campaign">
          <CreateCampaign
            onStarted={(id) => {
              update([id, ...ids])
              setNotice("The campaign started; its progress shows above.")
            }}
          />
        </Section>
      ) : null}
    </Page>
  )
}

export const Campaigns = guarded(() => may("POST /api/campaigns"), "Campaigns", CampaignsScreen)
