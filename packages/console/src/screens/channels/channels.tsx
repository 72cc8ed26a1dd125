/**
 * Channels (docs/contract.md §14, §9, §10, §16): connect the sandbox (and simulate a customer on it), the
 * cloud business-messaging number and the bridge, see which are connected, and the addresses and
 * verify token the provider and the bridge need. The bridge's inbound token is shown once.
 */
import { useRef, useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import { may } from "../../session.ts"
import { definedOnly, type FieldErrors, focusFirstInvalid, issueErrors, TextField } from "../../ui/fields.tsx"
import { formatTime } from "../../ui/format.ts"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { guarded, Page, Section } from "../../ui/page.tsx"
import { CopyField, ShownOnce } from "../../ui/secret.tsx"
import { ConnectSandbox, SimulateCustomer } from "./sandbox.tsx"

type Channel = Answer<"/api/channels", "get">["data"][number]

const State = ({ channel }: { channel: Channel | undefined }) =>
  channel === undefined ? (
    <p>
      <span class="badge">not connected</span>
    </p>
  ) : channel.status === "unverified" ? (
    <p>
      <span class="badge badge-warn">not verified</span> connected before Parley checked connections with the provider:
      paste its access token again below to verify it.
    </p>
  ) : (
    <p>
      <span class="badge badge-ok">connected</span>
      {channel.sandbox ? <span class="badge">sandbox</span> : null} since {formatTime(channel.createdAt)}
      {channel.updatedAt === channel.createdAt ? null : `, changed ${formatTime(channel.updatedAt)}`}
    </p>
  )

const CloudForm = ({ channel, onSaved }: { channel: Channel | undefined; onSaved: () => void }) => {
  const real = channel?.sandbox === true ? undefined : channel
  const [phoneNumberId, setPhoneNumberId] = useState(real?.phoneNumberId ?? "")
  const [businessAccountId, setBusinessAccountId] = useState(real?.businessAccountId ?? "")
  const [accessToken, setAccessToken] = useState("")
  const [errors, setErrors] = useState<FieldErrors>({})
  const [saved, setSaved] = useState(false)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const numeric = (value: string, what: string) =>
    /^[0-9]+$/.test(value.trim()) ? undefined : `Enter the ${what} (digits).`
  const submit = async (event: Event) => {
    event.preventDefault()
    setSaved(false)
    const found: FieldErrors = {
      phoneNumberId: numeric(phoneNumberId, "phone number id"),
      businessAccountId: numeric(businessAccountId, "business account id"),
      accessToken: /^[\x21-\x7E]+$/.test(accessToken) ? undefined : "Paste the access token (no spaces).",
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const answer = await action.run(() =>
      unwrap(
        api.PUT("/api/channels/cloud", {
          body: { phoneNumberId: phoneNumberId.trim(), businessAccountId: businessAccountId.trim(), accessToken },
        }),
      ),
    )
    if (answer === undefined) return
    setAccessToken("")
    setSaved(true)
    onSaved()
  }
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} />
      {saved ? <StatusNotice>The provider confirmed the number: the cloud channel is connected.</StatusNotice> : null}
      <div class="row">
        <TextField
          label="Phone number id"
          inputMode="numeric"
          value={phoneNumberId}
          onValue={setPhoneNumberId}
          error={shown.phoneNumberId}
          required
        />
        <TextField
          label="Business account id"
          inputMode="numeric"
          value={businessAccountId}
          onValue={setBusinessAccountId}
          error={shown.businessAccountId}
          required
        />
      </div>
      <TextField
        label="Access token"
        type="password"
        autoComplete="off"
        value={accessToken}
        onValue={setAccessToken}
        error={shown.accessToken}
        required
        hint="Parley asks the provider whether this token can read the number before connecting it. Stored encrypted and never shown again; paste it again to change it."
      />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending
          ? "Checking with the provider…"
          : channel === undefined
            ? "Connect cloud channel"
            : channel.sandbox
              ? "Replace the sandbox with this number"
              : "Update cloud channel"}
      </button>
    </form>
  )
}

const BridgeForm = ({ channel, onSaved }: { channel: Channel | undefined; onSaved: (token: string) => void }) => {
  const [outboundUrl, setOutboundUrl] = useState(channel?.outboundUrl ?? "")
  const [error, setError] = useState<string | undefined>(undefined)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    let problem: string | undefined
    try {
      const url = new URL(outboundUrl.trim())
      if (url.protocol !== "http:" && url.protocol !== "https:")
        problem = "The URL must start with http:// or https://."
    } catch {
      problem = "Enter the bridge's absolute URL."
    }
    setError(problem)
    if (problem !== undefined) return focusFirstInvalid(form.current)
    const answer = await action.run(() =>
      unwrap(api.PUT("/api/channels/bridge", { body: { outboundUrl: outboundUrl.trim() } })),
    )
    if (answer !== undefined) onSaved(answer.inboundToken)
  }
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} />
      <TextField
        label="Outbound URL"
        type="url"
        value={outboundUrl}
        onValue={setOutboundUrl}
        error={error ?? issueErrors(action.error?.issues ?? []).outboundUrl}
        required
        spellcheck={false}
        hint="Parley POSTs each outgoing message here, signed like a webhook delivery."
      />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Connecting…" : channel === undefined ? "Connect bridge" : "Update bridge (new token)"}
      </button>
    </form>
  )
}

const ChannelsScreen = () => {
  const channels = useLoad(() => unwrap(api.GET("/api/channels")), [])
  const [token, setToken] = useState<string | undefined>(undefined)
  const cloud = channels.data?.data.find((c) => c.type === "cloud")
  const real = cloud?.sandbox === true ? undefined : cloud
  const webhook = channels.data?.cloudWebhook
  const bridge = channels.data?.data.find((c) => c.type === "bridge")
  const origin = location.origin
  if (channels.data === undefined) {
    return (
      <Page title="Channels">
        {channels.error === undefined ? <Loading what="channels" /> : <ErrorNotice error={channels.error} />}
      </Page>
    )
  }
  return (
    <Page
      title="Channels"
      intro="The phone numbers your customers write to. The assistant answers on each connected channel."
    >
      {token === undefined ? null : (
        <ShownOnce kept="encrypted" title="The bridge's inbound token" onDone={() => setToken(undefined)}>
          <p>
            Your bridge sends <code>Authorization: Bearer &lt;token&gt;</code> with each message to{" "}
            <code>{origin}/channels/bridge/inbound</code>.
          </p>
          <CopyField label="Inbound token" value={token} />
        </ShownOnce>
      )}
      <ErrorNotice error={channels.error} />
      <Section title="Sandbox: try it without a provider account">
        {cloud?.sandbox === true ? (
          <>
            <State channel={cloud} />
            <dl class="facts">
              <dt>Sandbox number</dt>
              <dd>{cloud.displayPhoneNumber}</dd>
              <dt>Phone number id</dt>
              <dd>{cloud.phoneNumberId}</dd>
              <dt>Business account id</dt>
              <dd>{cloud.businessAccountId}</dd>
            </dl>
            <SimulateCustomer channel={cloud} />
          </>
        ) : (
          <>
            <p>
              In the sandbox Parley plays the messaging provider: customers you simulate write to a sandbox number, the
              assistant answers them, and replies are reported sent, delivered and read. Templates, campaigns and every
              webhook event work as with a real account, and nothing leaves this machine.
            </p>
            <ConnectSandbox cloud={cloud} onConnected={channels.reload} />
          </>
        )}
      </Section>
      <Section title="Cloud business messaging">
        {cloud?.sandbox === true ? (
          <p>
            <span class="badge">sandbox</span> The cloud channel is the sandbox above, which is connected; connect a
            real number here to replace it.
          </p>
        ) : (
          <State channel={real} />
        )}
        {real === undefined ? null : (
          <dl class="facts">
            <dt>Number</dt>
            <dd>{real.displayPhoneNumber ?? "—"}</dd>
            <dt>Phone number id</dt>
            <dd>{real.phoneNumberId}</dd>
            <dt>Business account id</dt>
            <dd>{real.businessAccountId}</dd>
          </dl>
        )}
        <p class="hint">
          In the provider's app settings, subscribe the webhook with this callback URL and verify token.
        </p>
        <CopyField label="Callback URL" value={webhook?.callbackUrl ?? `${origin}/channels/cloud/webhook`} />
        {webhook?.verifyToken == null ? (
          <p class="hint">
            No verify token is configured: set <code>PARLEY_CLOUD_VERIFY_TOKEN</code> (<code>npm start</code> generates
            one on first start).
          </p>
        ) : (
          <CopyField label="Verify token" value={webhook.verifyToken} />
        )}
        <CloudForm key={cloud?.updatedAt ?? "new"} channel={cloud} onSaved={channels.reload} />
      </Section>
      <Section title="Bridge">
        <State channel={bridge} />
        {bridge === undefined ? null : (
          <dl class="facts">
            <dt>Outbound URL</dt>
            <dd>{bridge.outboundUrl}</dd>
          </dl>
        )}
        <BridgeForm
          key={bridge?.updatedAt ?? "new"}
          channel={bridge}
          onSaved={(inboundToken) => {
            setToken(inboundToken)
            channels.reload()
          }}
        />
      </Section>
    </Page>
  )
}

export const Channels = guarded(() => may("GET /api/channels"), "Channels", ChannelsScreen)
