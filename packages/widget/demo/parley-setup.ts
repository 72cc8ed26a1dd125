/**
 * What a tenant does in Parley before putting the widget on a site, through the API with the
 * full-access key `npm start` prints on first start: a widget key (§2.3, §4) and booking settings
 * that offer something to book (§9). Used by `npm run demo:widget` and the browser tests.
 */

export type WidgetScope = "chat:write" | "chat:read" | "bookings:read" | "bookings:write"

export const ALL_WIDGET_SCOPES: ReadonlyArray<WidgetScope> = [
  "chat:write",
  "chat:read",
  "bookings:read",
  "bookings:write",
]

const call = async (parleyUrl: string, adminKey: string, method: string, path: string, body: unknown) => {
  const response = await fetch(new URL(path, parleyUrl), {
    method,
    headers: { "x-api-key": adminKey, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
  return JSON.parse(text) as unknown
}

/** Creates a widget key and returns its full value (shown once, §4). */
export const createWidgetKey = async (
  parleyUrl: string,
  adminKey: string,
  options: { name?: string; scopes?: ReadonlyArray<WidgetScope>; allowedOrigins?: ReadonlyArray<string> } = {},
): Promise<string> => {
  const created = (await call(parleyUrl, adminKey, "POST", "/api/org/api-keys", {
    name: options.name ?? "Website widget",
    scopes: options.scopes ?? ALL_WIDGET_SCOPES,
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
  })) as { key: string }
  return created.key
}

/** Opening hours every day, 09:00–17:00 in UTC, one place per 30-minute slot. */
export const openEveryDay = async (
  parleyUrl: string,
  adminKey: string,
  services: ReadonlyArray<string> = ["check-up", "cleaning", "whitening"],
  timezone = "UTC",
): Promise<void> => {
  const day = [["09:00", "17:00"]]
  await call(parleyUrl, adminKey, "PUT", "/api/bookings/settings", {
    timezone,
    services,
    slotMinutes: 30,
    capacity: 1,
    hours: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
  })
}
