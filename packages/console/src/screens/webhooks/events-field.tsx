/** The events a webhook subscribes to, chosen from the catalogue (`GET /api/org/webhook-events`). */
import { api, type Schemas, unwrap } from "../../api/client.ts"
import { CheckboxGroup } from "../../ui/fields.tsx"
import { useLoad } from "../../ui/hooks.ts"
import { ErrorNotice, Loading } from "../../ui/notice.tsx"

/** One event of the catalogue, as the contract names it. */
export type EventName = Schemas["Attempt"]["event"]

export const useCatalogue = () => useLoad(() => unwrap(api.GET("/api/org/webhook-events")), [])
export type Catalogue = ReturnType<typeof useCatalogue>

export const EventsField = ({
  catalogue,
  selected,
  onSelected,
  error,
}: {
  catalogue: Catalogue
  selected: ReadonlyArray<EventName>
  onSelected: (events: Array<EventName>) => void
  error?: string | undefined
}) => {
  if (catalogue.error !== undefined)
    return <ErrorNotice error={catalogue.error} title="The event catalogue did not load." />
  if (catalogue.data === undefined) return <Loading what="the event catalogue" />
  return (
    <CheckboxGroup
      legend="Events"
      options={catalogue.data.data.map((event) => ({
        value: event.name,
        label: <code>{event.name}</code>,
        hint: event.description,
      }))}
      selected={selected}
      onSelected={onSelected}
      error={error}
    />
  )
}
