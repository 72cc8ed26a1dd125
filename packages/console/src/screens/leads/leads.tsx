/**
 * Leads (docs/contract.md §14, §9): the people the assistant recorded, filtered by type and paged, and
 * the whole list as CSV, with the download's progress shown as it arrives.
 */
import { useState } from "preact/hooks"
import { type Answer, ApiFailure, api, type paths, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { readWithProgress, saveFile } from "../../ui/download.ts"
import { SelectField } from "../../ui/fields.tsx"
import { formatClock, formatDay, formatTime } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { guarded, Page, Section, TableScroll } from "../../ui/page.tsx"
import { Pager, usePaging } from "../../ui/pager.tsx"
import { readablePhone } from "../../ui/phone.ts"

type LeadType = NonNullable<NonNullable<paths["/api/leads"]["get"]["parameters"]["query"]>["type"]>

const TYPES: ReadonlyArray<{ value: LeadType; label: string }> = [
  { value: "CALLBACK_REQUESTED", label: "Callback requested" },
  { value: "DEMO_REQUESTED", label: "Demo requested" },
  { value: "BOOKING", label: "Booking" },
  { value: "GENERAL_INQUIRY", label: "General inquiry" },
]
const typeLabel = (type: string) => TYPES.find((t) => t.value === type)?.label ?? type

type Lead = Answer<"/api/leads", "get">["data"][number]

/** Where the lead came from, in the console's words for those places (the API's `source` codes). */
const SOURCES: Readonly<Record<string, string>> = {
  chat: "Website chat",
  booking: "Website booking",
  cloud: "Cloud channel",
  bridge: "Bridge channel",
}
const sourceLabel = (source: string) => SOURCES[source] ?? source

const bookingText = (booking: Lead["booking"]) =>
  booking === null ? "—" : `${booking.service}, ${formatDay(booking.date)} ${formatClock(booking.time)}`

/** The CSV of the leads the list shows: every type, or the one chosen in the filter. */
const Export = ({ type }: { type: LeadType | "" }) => {
  const action = useAction()
  const [bytes, setBytes] = useState<number | undefined>(undefined)
  const [done, setDone] = useState(false)
  const run = () => {
    setDone(false)
    setBytes(0)
    return action.run(async () => {
      const { response } = await api.GET("/api/leads/export", {
        params: { query: type === "" ? {} : { type } },
        parseAs: "stream",
      })
      if (!response.ok || response.body === null) {
        // The refusal's own words (a 429 says to slow down): read the error body.
        await unwrap(Promise.resolve({ error: await response.json().catch(() => undefined), response }))
        throw new ApiFailure(response.status, "export", "The export failed.", [])
      }
      const blob = await readWithProgress(response.body, setBytes)
      const kind = type === "" ? "" : `-${type.toLowerCase().replaceAll("_", "-")}`
      saveFile(blob, `leads${kind}-${new Date().toISOString().slice(0, 10)}.csv`, "text/csv")
      setDone(true)
    })
  }
  return (
    <div>
      <button type="button" class="secondary" onClick={run} disabled={action.pending}>
        {action.pending
          ? "Exporting…"
          : type === ""
            ? "Export all leads as CSV"
            : `Export “${typeLabel(type)}” leads as CSV`}
      </button>
      {action.pending && bytes !== undefined ? (
        <p role="status">
          <progress aria-label="Export progress" /> {Math.round(bytes / 1024)} KB received
        </p>
      ) : null}
      {done ? (
        <StatusNotice>Export downloaded ({Math.max(1, Math.round((bytes ?? 0) / 1024))} KB).</StatusNotice>
      ) : null}
      <ErrorNotice error={action.error} title="The export failed." />
    </div>
  )
}

const LeadsScreen = () => {
  const [type, setType] = useState<LeadType | "">("")
  const paging = usePaging()
  const leads = useLoad(
    () =>
      unwrap(
        api.GET("/api/leads", {
          params: {
            query: {
              limit: "50",
              ...(type === "" ? {} : { type }),
              ...(paging.cursor === undefined ? {} : { cursor: paging.cursor }),
            },
          },
        }),
      ),
    [type, paging.cursor],
  )
  const list = leads.data?.data ?? []
  return (
    <Page
      title="Leads"
      intro="People who left a phone number with the assistant — on the website chat or a phone channel."
    >
      <Section title="Leads" actions={may("GET /api/leads/export") ? <Export type={type} /> : undefined}>
        <SelectField
          label="Type"
          value={type}
          onValue={(value) => {
            setType(value as LeadType | "")
            paging.reset()
          }}
          options={[{ value: "", label: "All types" }, ...TYPES]}
        />
        <ErrorNotice error={leads.error} />
        {leads.data === undefined && leads.loading ? (
          <Loading what="leads" />
        ) : list.length === 0 ? (
          <EmptyState title={type === "" ? "No leads yet." : `No leads of type “${typeLabel(type)}”.`}>
            Leads appear when a visitor leaves a phone number with the assistant. Try it in the{" "}
            <a href="/console/assistant">assistant's preview</a>, or add the widget to your website.
          </EmptyState>
        ) : (
          <TableScroll label="Leads">
            {/* On a phone each lead is a card: its number, then each value under its column's name (`cards`). */}
            <table class="cards">
              <thead>
                <tr>
                  <th scope="col">Phone</th>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Booking</th>
                  <th scope="col">Source</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {list.map((lead) => (
                  <tr key={lead.id}>
                    <th scope="row" class="nowrap">
                      <a href={`/console/messages?phone=${encodeURIComponent(lead.phone)}`}>
                        {readablePhone(lead.phone)}
                      </a>
                    </th>
                    <td data-label="Name">{lead.name === "" ? <span class="muted">—</span> : lead.name}</td>
                    <td class="nowrap" data-label="Type">
                      {typeLabel(lead.type)}
                    </td>
                    <td data-label="Booking">{bookingText(lead.booking)}</td>
                    <td data-label="Source">{sourceLabel(lead.source)}</td>
                    <td class="nowrap" data-label="Updated">
                      {formatTime(lead.updatedAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        <Pager paging={paging} nextCursor={leads.data?.nextCursor} label="Leads" />
      </Section>
    </Page>
  )
}

export const Leads = guarded(() => may("GET /api/leads"), "Leads", LeadsScreen)
