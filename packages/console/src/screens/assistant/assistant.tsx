/**
 * Assistant (docs/contract.md §14): its profile and FAQ (§8), the booking settings it books by, a live
 * preview of it, and the snippet that puts it on a website (§15) for a chosen widget key. A member
 * reads the profile; the rest is an administrator's.
 */
import { useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { useLoad } from "../../ui/hooks.ts"
import { ErrorNotice, Loading } from "../../ui/notice.tsx"
import { guarded, Page, Section } from "../../ui/page.tsx"
import { CopyField } from "../../ui/secret.tsx"
import { BookingSettingsForm } from "./booking-settings.tsx"
import { PreviewChat } from "./preview-chat.tsx"
import { ProfileForm } from "./profile-form.tsx"
import { WidgetKey, type WidgetKeyChoice, widgetSnippet } from "./widget-key.tsx"

const Profile = () => {
  const profile = useLoad(() => unwrap(api.GET("/api/assistant/profile")), [])
  if (profile.data === undefined) {
    return profile.error === undefined ? <Loading what="the profile" /> : <ErrorNotice error={profile.error} />
  }
  return <ProfileForm profile={profile.data} editable={may("PUT /api/assistant/profile")} onSaved={profile.reload} />
}

const BookingSettings = () => {
  const settings = useLoad(() => unwrap(api.GET("/api/bookings/settings")), [])
  if (settings.data === undefined) {
    return settings.error === undefined ? <Loading what="booking settings" /> : <ErrorNotice error={settings.error} />
  }
  return <BookingSettingsForm settings={settings.data} onSaved={settings.reload} />
}

const OnYourWebsite = () => {
  const [choice, setChoice] = useState<WidgetKeyChoice>({ key: undefined, prefix: undefined })
  const snippet = widgetSnippet(location.origin, choice)
  return (
    <>
      <Section title="Widget key">
        <WidgetKey onChoice={setChoice} />
      </Section>
      <Section title="Add the assistant to your website">
        <p>Paste this tag into every page that should show the chat, just before &lt;/body&gt;.</p>
        <pre>
          <code>{snippet}</code>
        </pre>
        <CopyField label="Widget snippet" value={snippet} />
        {choice.key === undefined ? <p class="hint">Paste the full key above to complete the snippet.</p> : null}
      </Section>
    </>
  )
}

const AssistantScreen = () => (
  <Page title="Assistant" intro="What your assistant knows and how it books, tried live, and put on your website.">
    <Section title="Profile">
      <Profile />
    </Section>
    {may("GET /api/bookings/settings") ? (
      <Section title="Booking settings">
        <BookingSettings />
      </Section>
    ) : null}
    {may("POST /api/assistant/preview") ? (
      <Section title="Preview">
        <PreviewChat />
      </Section>
    ) : null}
    {may("GET /api/org/api-keys") ? <OnYourWebsite /> : null}
  </Page>
)

export const Assistant = guarded(() => may("GET /api/assistant/profile"), "Assistant", AssistantScreen)
