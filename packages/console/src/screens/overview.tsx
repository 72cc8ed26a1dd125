/** Where the console opens: what to set up first, in the order a new organization needs it. */
import type { RouteKey } from "../api/access.ts"
import { may, session } from "../session.ts"
import { Page } from "../ui/page.tsx"

const STEPS: ReadonlyArray<{ href: string; title: string; text: string; needs: RouteKey }> = [
  {
    href: "/console/settings/api-keys",
    title: "Create an API key",
    text: "A widget key for your website's chat, a server key for your own systems.",
    needs: "POST /api/org/api-keys",
  },
  {
    href: "/console/assistant",
    title: "Teach the assistant",
    text: "Opening hours and services, then try it in the preview and copy the widget snippet.",
    needs: "PUT /api/bookings/settings",
  },
  {
    href: "/console/channels",
    title: "Connect a phone number",
    text: "The cloud business-messaging API or a bridge, so customers can write to you there — or the sandbox, to try it all without a provider account.",
    needs: "PUT /api/channels/cloud",
  },
  {
    href: "/console/settings/webhooks",
    title: "Receive events",
    text: "A webhook tells your systems about leads, bookings, messages and campaigns as they happen.",
    needs: "GET /api/org/webhooks",
  },
  {
    href: "/console/members",
    title: "Invite your team",
    text: "Administrators manage everything; members answer customers in the inbox and read webhooks and who is on the team.",
    needs: "POST /api/org/members",
  },
]

/** What a member comes for: the screens a member may read, no set-up they cannot do. */
const MEMBER_STEPS: ReadonlyArray<{ href: string; title: string; text: string; needs: RouteKey }> = [
  {
    href: "/console/inbox",
    title: "Inbox",
    text: "Customers' conversations with the assistant; take one over to answer in person.",
    needs: "GET /api/conversations",
  },
  {
    href: "/console/settings/webhooks",
    title: "Webhooks",
    text: "Whether your systems receive the events, and each delivery in full.",
    needs: "GET /api/org/webhooks",
  },
  {
    href: "/console/members",
    title: "Your password",
    text: "Change it on the Members screen, where your team is listed.",
    needs: "PUT /api/auth/password",
  },
]

export const Overview = () => {
  const me = session.value
  const admin = me?.user.role === "admin"
  const steps = (admin ? STEPS : MEMBER_STEPS).filter((step) => may(step.needs))
  return (
    <Page title="Overview" intro={me ? `Welcome to ${me.organization.name}'s console.` : undefined}>
      <section class="panel" aria-labelledby="getting-started">
        <h2 id="getting-started">{admin ? "Getting started" : "What you can see"}</h2>
        <ol class="steps">
          {steps.map((step) => (
            <li key={step.href}>
              <a href={step.href}>{step.title}</a> — {step.text}
            </li>
          ))}
        </ol>
      </section>
    </Page>
  )
}
