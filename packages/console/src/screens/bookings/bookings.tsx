/**
 * Bookings (docs/contract.md §14, §9): the bookings of a day or all of them, paged, newest first; an
 * administrator cancels one after a confirmation (it stays listed, cancelled).
 */
import { useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { ConfirmButton } from "../../ui/confirm.tsx"
import { TextField } from "../../ui/fields.tsx"
import { formatClock, formatDay, formatTime } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { guarded, Page, Section, TableScroll } from "../../ui/page.tsx"
import { Pager, usePaging } from "../../ui/pager.tsx"
import { readablePhone } from "../../ui/phone.ts"

const BookingsScreen = () => {
  const [date, setDate] = useState("")
  const cancel = useAction()
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const paging = usePaging()
  const valid = date === "" || /^\d{4}-\d{2}-\d{2}$/.test(date)
  const bookings = useLoad(
    () =>
      valid
        ? unwrap(
            api.GET("/api/bookings", {
              params: {
                query: {
                  limit: "50",
                  ...(date === "" ? {} : { date }),
                  ...(paging.cursor === undefined ? {} : { cursor: paging.cursor }),
                },
              },
            }),
          )
        : Promise.resolve(undefined),
    [date, paging.cursor],
  )
  const list = bookings.data?.data ?? []
  const onCancel = async (id: string, what: string) => {
    setNotice(undefined)
    const done = await cancel.run(() => unwrap(api.DELETE("/api/bookings/{id}", { params: { path: { id } } })))
    if (done === undefined) return
    setNotice(`The booking of ${what} is cancelled; its place is free again.`)
    bookings.reload()
  }
  return (
    <Page title="Bookings" intro="Appointments taken by the assistant and the website widget.">
      {notice === undefined ? null : <StatusNotice>{notice}</StatusNotice>}
      <ErrorNotice error={cancel.error} title="Not cancelled." />
      <Section title={date === "" ? "All bookings" : `Bookings on ${formatDay(date)}`}>
        <div class="row">
          <TextField
            label="Day"
            type="date"
            value={date}
            onValue={(value) => {
              setDate(value)
              paging.reset()
            }}
            hint="Empty: every day."
          />
        </div>
        <ErrorNotice error={bookings.error} />
        {bookings.data === undefined && bookings.loading ? (
          <Loading what="bookings" />
        ) : list.length === 0 ? (
          <EmptyState title={date === "" ? "No bookings yet." : "No bookings that day."}>
            Visitors book through the assistant or the widget's booking form; set your opening hours and services on the{" "}
            <a href="/console/assistant">Assistant</a> screen.
          </EmptyState>
        ) : (
          <TableScroll label="Bookings">
            {/* On a phone each booking is a card: its time, then each value under its column's name (`cards`). */}
            <table class="cards">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Service</th>
                  <th scope="col">Name</th>
                  <th scope="col">Phone</th>
                  <th scope="col">Status</th>
                  <th scope="col">Notes</th>
                  <th scope="col">Booked</th>
                  {may("DELETE /api/bookings/{id}") ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {list.map((booking) => (
                  <tr key={booking.id}>
                    <th scope="row" class="nowrap">
                      <time dateTime={`${booking.date}T${booking.time}`}>
                        {formatDay(booking.date)} {formatClock(booking.time)}
                      </time>
                    </th>
                    <td data-label="Service">{booking.service}</td>
                    <td data-label="Name">{booking.name}</td>
                    <td class="nowrap" data-label="Phone">
                      {readablePhone(booking.phone)}
                    </td>
                    <td data-label="Status">
                      <span class={`badge ${booking.status === "confirmed" ? "badge-ok" : "badge-bad"}`}>
                        {booking.status}
                      </span>
                    </td>
                    <td data-label="Notes">{booking.notes ?? "—"}</td>
                    <td data-label="Booked">{formatTime(booking.createdAt)}</td>
                    {may("DELETE /api/bookings/{id}") ? (
                      <td data-label="Actions">
                        {booking.status === "confirmed" ? (
                          <ConfirmButton
                            label="Cancel…"
                            accessibleLabel={`Cancel ${booking.name}'s booking on ${formatDay(booking.date)} at ${formatClock(booking.time)}`}
                            title={`Cancel ${booking.name}'s booking?`}
                            confirmLabel="Cancel booking"
                            dismissLabel="Keep booking"
                            danger
                            onConfirm={() =>
                              onCancel(
                                booking.id,
                                `${booking.name} on ${formatDay(booking.date)} at ${formatClock(booking.time)}`,
                              )
                            }
                          >
                            <p>
                              {booking.service} on {formatDay(booking.date)} at {formatClock(booking.time)}. It stays
                              listed as cancelled, its place is freed and the lead loses the booking.
                            </p>
                          </ConfirmButton>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        <Pager paging={paging} nextCursor={bookings.data?.nextCursor} label="Bookings" />
      </Section>
    </Page>
  )
}

export const Bookings = guarded(() => may("GET /api/bookings"), "Bookings", BookingsScreen)
