/**
 * The console's screens as the navigation lists them. Each names the route it reads, so that a
 * member sees only the screens a member may read (`api/access.ts`) and a route gone from the
 * contract fails the typecheck.
 */
import type { RouteKey } from "../api/access.ts"

export interface NavItem {
  readonly href: string
  readonly label: string
  /** The route the screen cannot do without. */
  readonly reads: RouteKey
}

export const NAV: ReadonlyArray<{ readonly group: string; readonly items: ReadonlyArray<NavItem> }> = [
  {
    group: "Customers",
    items: [
      { href: "/console/inbox", label: "Inbox", reads: "GET /api/conversations" },
      { href: "/console/leads", label: "Leads", reads: "GET /api/leads" },
      { href: "/console/bookings", label: "Bookings", reads: "GET /api/bookings" },
      { href: "/console/messages", label: "Messages", reads: "GET /api/messages" },
      { href: "/console/campaigns", label: "Campaigns", reads: "POST /api/campaigns" },
      { href: "/console/templates", label: "Templates", reads: "GET /api/templates" },
    ],
  },
  {
    group: "Assistant",
    items: [
      { href: "/console/assistant", label: "Assistant", reads: "GET /api/assistant/profile" },
      { href: "/console/channels", label: "Channels", reads: "GET /api/channels" },
    ],
  },
  {
    group: "Settings",
    items: [
      { href: "/console/settings/api-keys", label: "API keys", reads: "GET /api/org/api-keys" },
      { href: "/console/settings/webhooks", label: "Webhooks", reads: "GET /api/org/webhooks" },
      { href: "/console/members", label: "Members", reads: "GET /api/org/members" },
    ],
  },
]
