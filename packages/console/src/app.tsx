/**
 * The console: the sign-in screen until a session exists, then the shell and the screen of the
 * URL (`/console/...`, routed in the browser; the gateway answers every such path with this page).
 * Screens other than the overview load on first visit, so the first load carries only the shell.
 */

import { useEffect, useState } from "preact/hooks"
import { ErrorBoundary, LocationProvider, lazy, Route, Router } from "preact-iso"
import { asFailure } from "./api/client.ts"
import { Overview } from "./screens/overview.tsx"
import { SignIn } from "./screens/sign-in.tsx"
import { loadSession, session } from "./session.ts"
import { Shell } from "./shell/shell.tsx"
import { Page } from "./ui/page.tsx"

const ApiKeys = lazy(() => import("./screens/api-keys/api-keys.tsx").then((m) => m.ApiKeys))
const Webhooks = lazy(() => import("./screens/webhooks/webhooks.tsx").then((m) => m.Webhooks))
const WebhookDetail = lazy(() => import("./screens/webhooks/webhook-detail.tsx").then((m) => m.WebhookDetail))
const Members = lazy(() => import("./screens/members/members.tsx").then((m) => m.Members))
const Channels = lazy(() => import("./screens/channels/channels.tsx").then((m) => m.Channels))
const Assistant = lazy(() => import("./screens/assistant/assistant.tsx").then((m) => m.Assistant))
const Leads = lazy(() => import("./screens/leads/leads.tsx").then((m) => m.Leads))
const Bookings = lazy(() => import("./screens/bookings/bookings.tsx").then((m) => m.Bookings))
const Messages = lazy(() => import("./screens/messages/messages.tsx").then((m) => m.Messages))
const Templates = lazy(() => import("./screens/templates/templates.tsx").then((m) => m.Templates))
const Inbox = lazy(() => import("./screens/inbox/inbox.tsx").then((m) => m.Inbox))
const Campaigns = lazy(() => import("./screens/campaigns/campaigns.tsx").then((m) => m.Campaigns))

const NotFound = () => (
  <Page title="Page not found">
    <p>
      There is no such page in the console. <a href="/console/">Go to the overview</a>.
    </p>
  </Page>
)

const Screens = () => (
  <Shell>
    <ErrorBoundary>
      <Router>
        <Route path="/console" component={Overview} />
        <Route path="/console/settings/api-keys" component={ApiKeys} />
        <Route path="/console/settings/webhooks" component={Webhooks} />
        <Route path="/console/settings/webhooks/:id" component={WebhookDetail} />
        <Route path="/console/members" component={Members} />
        <Route path="/console/channels" component={Channels} />
        <Route path="/console/assistant" component={Assistant} />
        <Route path="/console/inbox" component={Inbox} />
        <Route path="/console/leads" component={Leads} />
        <Route path="/console/bookings" component={Bookings} />
        <Route path="/console/messages" component={Messages} />
        <Route path="/console/templates" component={Templates} />
        <Route path="/console/campaigns" component={Campaigns} />
        <Route default component={NotFound} />
      </Router>
    </ErrorBoundary>
  </Shell>
)

export const App = () => {
  const [failure, setFailure] = useState<string | undefined>(undefined)
  useEffect(() => {
    loadSession().catch((error: unknown) => setFailure(asFailure(error).message))
  }, [])
  if (failure !== undefined) {
    return (
      <main id="main" class="sign-in">
        <div class="sign-in-card">
          <h1>The console could not start</h1>
          <p role="alert">{failure}</p>
          <button type="button" class="primary" onClick={() => location.reload()}>
            Try again
          </button>
        </div>
      </main>
    )
  }
  if (session.value === undefined) return <p class="muted loading-app">Loading the console…</p>
  return <LocationProvider scope="/console">{session.value === null ? <SignIn /> : <Screens />}</LocationProvider>
}
