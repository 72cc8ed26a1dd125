/**
 * One path, one gate (docs/contract.md §2.3, docs/design.md §2): every declared route (`allServiceRoutes`,
 * so a new route is in the table the day it is declared) × every spelling a router might read as
 * that route (`spellingsOf`: escapes, encoded and extra slashes, case, `HEAD`, `OPTIONS`) × each
 * gate — a public route's scope, the widget-only rule, the administrator rule and the heavy limit.
 * A spelling the services' router serves as the route must meet the route's gate; any other must be
 * a 404. Run against `npm start` (one process) and against Parley distributed.
 */
import { randomBytes } from "node:crypto"
import { allServiceRoutes, type RouteDeclaration, type Scope, WidgetScopes } from "@parley/contracts"
import { type RouteSpelling, spellingsOf } from "@parley/platform/testing"

export interface GateCredentials {
  /** For each widget scope, a widget key holding every other widget scope but that one. */
  readonly withoutScope: Readonly<Record<string, string>>
  /** A key of widget scopes only. */
  readonly widgetOnly: string
  /** A legacy key (no scopes): acts as an administrator. */
  readonly legacy: string
  /** `parley_session=…` of a member who is not an administrator. */
  readonly memberCookie: string
}

const json = (body: unknown) => ({ "content-type": "application/json", body: JSON.stringify(body) })

/** A new organization with the credentials the table needs, made through the gateway as a tenant would. */
export const setUpGateCredentials = async (url: string, operatorToken: string): Promise<GateCredentials> => {
  const unique = randomBytes(6).toString("hex")
  const password = `pw-${randomBytes(12).toString("hex")}`
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const { body: text, ...contentType } = json(body)
    const answer = await fetch(`${url}${path}`, { method: "POST", headers: { ...contentType, ...headers }, body: text })
    if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${await answer.text()}`)
    return answer
  }
  const login = async (email: string) => {
    const answer = await post("/api/auth/login", { email, password })
    const cookie = /parley_session=[^;]+/.exec(answer.headers.get("set-cookie") ?? "")?.[0]
    if (cookie === undefined) throw new Error(`login of ${email}: no cookie`)
    return cookie
  }
  const adminEmail = `gates-admin-${unique}@example.com`
  await post(
    "/api/operator/organizations",
    { name: `Gates ${unique}`, features: ["api_access"], admin: { email: adminEmail, password } },
    { authorization: `Bearer ${operatorToken}` },
  )
  const admin = await login(adminEmail)
  const memberEmail = `gates-member-${unique}@example.com`
  await post("/api/org/members", { email: memberEmail, password, role: "member" }, { cookie: admin })
  const mint = async (scopes?: ReadonlyArray<Scope>) => {
    const answer = await post(
      "/api/org/api-keys",
      { name: `gates ${(scopes ?? ["legacy"]).join(" ")}`, ...(scopes === undefined ? {} : { scopes }) },
      { cookie: admin },
    )
    return ((await answer.json()) as { key: string }).key
  }
  const withoutScope: Record<string, string> = {}
  for (const scope of WidgetScopes) withoutScope[scope] = await mint(WidgetScopes.filter((s) => s !== scope))
  return {
    withoutScope,
    widgetOnly: await mint(WidgetScopes),
    legacy: await mint(),
    memberCookie: await login(memberEmail),
  }
}

type Gate = "scope" | "widget-only" | "admin" | "heavy"

interface Row {
  readonly gate: Gate
  readonly route: string
  /** The declared method (what a preflight asks about). */
  readonly method: string
  readonly spelling: RouteSpelling
  readonly headers: Record<string, string>
  /** `undefined` when the answer meets the gate, else what is wrong with it. */
  readonly check: (answer: Response, body: { code?: unknown } | undefined) => string | undefined
}

const refusedWith =
  (status: number, code: string) =>
  (answer: Response, body: { code?: unknown } | undefined): string | undefined => {
    if (answer.status !== status) return `expected ${status} ${code}, got ${answer.status}`
    // A HEAD answer has no body to read the code from.
    if (body !== undefined && body.code !== code) return `expected ${code}, got ${String(body.code)}`
    return undefined
  }

const notFound = refusedWith(404, "not_found")

const isPrivate = (route: RouteDeclaration) =>
  route.access === "member" || route.access === "admin" || route.access === "adminWithApiAccess"
const isAdmin = (route: RouteDeclaration) => route.access === "admin" || route.access === "adminWithApiAccess"

/** Every row of the table: route × spelling × the gates that apply to the route. */
export const gateTable = (credentials: GateCredentials, heavyLimit: number): Array<Row> => {
  const rows: Array<Row> = []
  for (const { service, routes } of allServiceRoutes) {
    for (const [name, route] of Object.entries(routes)) {
      const where = `${service}.${name} (${route.method} ${route.path})`
      const gates: Array<{ gate: Gate; headers: Record<string, string>; met: Row["check"] }> = []
      if (route.access === "public" && route.scope !== undefined) {
        const scope = route.scope
        gates.push({
          gate: "scope",
          headers: { "x-api-key": credentials.withoutScope[scope] as string },
          met: refusedWith(403, "missing_scope"),
        })
      }
      if (isPrivate(route)) {
        gates.push({
          gate: "widget-only",
          headers: { "x-api-key": credentials.widgetOnly },
          met: refusedWith(403, "widget_key_forbidden"),
        })
      }
      if (isAdmin(route)) {
        gates.push({
          gate: "admin",
          headers: { cookie: credentials.memberCookie },
          met: refusedWith(403, "admin_required"),
        })
      }
      if (route.heavy === true) {
        gates.push({
          gate: "heavy",
          headers: { "x-api-key": credentials.legacy },
          met: (answer) => {
            const limit = answer.headers.get("ratelimit-limit")
            return answer.status !== 429 && limit === String(heavyLimit)
              ? undefined
              : `expected the heavy limit (RateLimit-Limit: ${heavyLimit}), got ${answer.status} with ${limit}`
          },
        })
      }
      for (const { gate, headers, met } of gates) {
        for (const spelling of spellingsOf(route)) {
          let check = spelling.routes
            ? met
            : declaredElsewhere(route.method, spelling.path)
              ? // Another declared route (`/api/conversations/Events` is `/api/conversations/:id`):
                // refused by that route's gate, which is this one's, or no route.
                (answer: Response, body: { code?: unknown } | undefined) =>
                  met(answer, body) === undefined || notFound(answer, body) === undefined
                    ? undefined
                    : `expected a refusal or 404, got ${answer.status}`
              : notFound
          if (spelling.method === "OPTIONS") {
            // A preflight of a public route is answered at the edge (CORS, docs/contract.md §8) and
            // reaches no service; anything else is no route.
            check =
              route.access === "public"
                ? (answer) =>
                    answer.status === 204 && answer.headers.get("access-control-allow-methods") !== null
                      ? undefined
                      : `expected the CORS preflight's 204, got ${answer.status}`
                : notFound
          }
          rows.push({ gate, route: where, method: route.method, spelling, headers, check })
        }
      }
    }
  }
  return rows
}

/**
 * Runs every row against the gateway at `url` (bodiless requests: every gate is decided before a
 * body is read) and answers the rows that failed, each saying how.
 */
/** Whether `path` (as sent) has the shape of some declared route of `method` other than by a param's case. */
const declaredElsewhere = (method: string, path: string): boolean => {
  const segments = path.split("?")[0]?.split("/") ?? []
  return allServiceRoutes.some(({ routes }) =>
    Object.values(routes).some((declared) => {
      if (declared.method !== method && !(method === "HEAD" && declared.method === "GET")) return false
      const pattern = declared.path.split("/")
      return (
        pattern.length === segments.length &&
        pattern.every((part, i) => (part.startsWith(":") ? (segments[i] ?? "") !== "" : part === segments[i]))
      )
    }),
  )
}

export const checkGates = async (url: string, rows: ReadonlyArray<Row>, parallel = 8): Promise<Array<string>> => {
  const failures: Array<string> = []
  let next = 0
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++] as Row
      const { spelling } = row
      const preflight: Record<string, string> =
        spelling.method === "OPTIONS"
          ? { origin: "https://shop.example", "access-control-request-method": row.method }
          : {}
      const answer = await fetch(`${url}${spelling.path}`, {
        method: spelling.method,
        headers: { ...row.headers, ...preflight },
      })
      const text = await answer.text()
      let body: { code?: unknown } | undefined
      try {
        body = text === "" ? undefined : (JSON.parse(text) as { code?: unknown })
      } catch {
        body = undefined
      }
      const wrong = row.check(answer, body)
      if (wrong !== undefined) {
        failures.push(
          `${row.gate} gate, ${row.route}, ${spelling.label}: ${spelling.method} ${spelling.path} → ${wrong}`,
        )
      }
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  return failures
}
