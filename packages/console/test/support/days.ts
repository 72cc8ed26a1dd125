/** Days as the browser tests need them. */

/** The next Monday (UTC) as YYYY-MM-DD: a day the default booking settings are open. */
export const nextMonday = (): string => {
  const day = new Date()
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7 || 7))
  return day.toISOString().slice(0, 10)
}

/** A day as the console writes it, with its weekday ("Mon, Nov 30, 2026"), in the browser's en-US. */
export const weekdayDate = (date: string): string =>
  new Intl.DateTimeFormat("en-US", {
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`))
