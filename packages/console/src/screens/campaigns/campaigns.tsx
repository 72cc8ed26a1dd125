/**
 * Campaigns (docs/contract.md §14, §9): every campaign of the organization from `GET /api/campaigns`,
 * newest first, paged, each with its progress (read again every two seconds while one is running)
 * and, on demand, what became of each recipient; and a new campaign, reviewed before it starts
 * (`create-campaign.tsx`).
 */
import { useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { SelectField } from "../../ui/fields.tsx"
import { count, formatNumber, formatTime } from "../../ui/format.ts"
import { useInterval, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { guarded, Page, Section, TableScroll } from "../../ui/page.tsx"
import { Pager, usePaging } from "../../ui/pager.tsx"
import { readablePhone } from "../../ui/phone.ts"
import { sendErrorInWords } from "../../ui/send-error.ts"
import { CreateCampaign } from "./create-campaign.tsx"

type Campaign = Answer<"/api/campaigns", "get">["data"][number]
type RecipientStatus = "" | "pending" | "sent" | "failed"

const Recipients = ({ id, running }: { id: string; running: boolean }) => {
  const [status, setStatus] = useState<RecipientStatus>("")
  const paging = usePaging()
  const list = useLoad(
    () =>
      unwrap(
        api.GET("/api/campaigns/{id}/recipients", {
          params: {
            path: { id },
            query: {
              limit: "50",
              ...(status === "" ? {} : { status }),
              ...(paging.cursor === undefined ? {} : { cursor: paging.cursor }),
            },
          },
        }),
      ),
    [id, status, paging.cursor],
  )
  useInterval(list.reload, 2000, running && list.error === undefined)
  const rows = list.data?.data ?? []
  return (
    <div>
      <SelectField
        label="Show recipients"
        value={status}
        onValue={(value) => {
          setStatus(value as RecipientStatus)
          paging.reset()
        }}
        options={[
          { value: "", label: "All" },
          { value: "pending", label: "Pending" },
          { value: "sent", label: "Sent" },
          { value: "failed", label: "Failed" },
        ]}
      />
      <ErrorNotice error={list.error} />
      {list.data === undefined ? (
        list.error === undefined ? (
          <Loading what="recipients" />
        ) : null
      ) : rows.length === 0 ? (
        <p class="muted">No recipients with that status.</p>
      ) : (
        <TableScroll label="Recipients">
          {/* On a phone each recipient is a card, each value under its column's name (`cards`). */}
          <table class="cards">
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Status</th>
                <th scope="col">Provider id or error</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.phone}>
                  <td class="nowrap" data-label="Number">
                    {readablePhone(r.phone)}
                  </td>
                  <td data-label="Status">{r.status}</td>
                  <td class="break" data-label="Provider id or error">
                    {r.error === null ? (r.messageId ?? "—") : sendErrorInWords(r.error)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager paging={paging} nextCursor={list.data?.nextCursor} label="Recipients" />
    </div>
  )
}

const CampaignCard = ({ campaign }: { campaign: Campaign }) => {
  const [open, setOpen] = useState(false)
  const done = count(campaign.sent) + count(campaign.failed)
  const total = count(campaign.totalRecipients)
  return (
    <article class="panel" aria-label={campaign.name}>
      <div class="panel-head">
        <h3>{campaign.name}</h3>
        <span class={`badge ${campaign.status === "completed" ? "badge-ok" : "badge-warn"}`}>{campaign.status}</span>
      </div>
      <p class="hint">
        {campaign.template.name} ({campaign.template.language}) · started {formatTime(campaign.createdAt)}
        {campaign.completedAt === null ? null : ` · completed ${formatTime(campaign.completedAt)}`}
      </p>
      <progress max={total} value={done} aria-label={`${campaign.name} progress`} />
      <p role="status">
        {formatNumber(done)} of {formatNumber(total)} attempted: {formatNumber(count(campaign.sent))} sent,{" "}
        {formatNumber(count(campaign.failed))} failed.
      </p>
      <button type="button" class="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Hide" : "Show"} recipients <span class="visually-hidden">of {campaign.name}</span>
      </button>
      {open ? <Recipients id={campaign.id} running={campaign.status === "running"} /> : null}
    </article>
  )
}

const CampaignsScreen = () => {
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const paging = usePaging()
  const campaigns = useLoad(
    () =>
      unwrap(
        api.GET("/api/campaigns", {
          params: { query: { limit: "20", ...(paging.cursor === undefined ? {} : { cursor: paging.cursor }) } },
        }),
      ),
    [paging.cursor],
  )
  const list = campaigns.data?.data ?? []
  useInterval(campaigns.reload, 2000, list.some((c) => c.status === "running") && campaigns.error === undefined)
  return (
    <Page
      title="Campaigns"
      intro="Send an approved template to many customers at once, and follow it until every one was attempted."
    >
      {notice === undefined ? null : <StatusNotice>{notice}</StatusNotice>}
      {may("POST /api/campaigns") ? (
        <Section title="Start a campaign">
          <CreateCampaign
            onStarted={() => {
              paging.reset()
              campaigns.reload()
              setNotice("The campaign started; its progress shows below.")
            }}
          />
        </Section>
      ) : null}
      <Section title="Campaigns">
        <ErrorNotice error={campaigns.error} />
        {campaigns.data === undefined ? (
          campaigns.error === undefined ? (
            <Loading what="campaigns" />
          ) : null
        ) : list.length === 0 ? (
          <EmptyState title="No campaigns yet.">Start one above.</EmptyState>
        ) : (
          list.map((campaign) => <CampaignCard key={campaign.id} campaign={campaign} />)
        )}
        <Pager paging={paging} nextCursor={campaigns.data?.nextCursor} label="Campaigns" />
      </Section>
    </Page>
  )
}

export const Campaigns = guarded(() => may("POST /api/campaigns"), "Campaigns", CampaignsScreen)
