/**
 * Run by test/e2e/deno.test.ts under Deno (not Node), importing the TypeScript sources unchanged:
 * @parley/platform's ids, hashing and secret box, @parley/contracts' API key format, the
 * dispatcher's envelope signing (checked with @parley/webhooks' `verify`), and the assistant's
 * deterministic engine (with its libraries: libphonenumber-js, chrono-node, eld, MiniSearch) through
 * a two-turn conversation. The dispatcher's signing covers both X-Service-Signature and the Standard
 * Webhooks headers, with a previous key as after a rotation.
 * Prints one JSON line of findings.
 * Input: one JSON argument { sealedOnNode, secretKey, secretPlaintext, today }.
 */
import { apiKeyChecksum, type DeliveryRecord, parseApiKey } from "@parley/contracts"
import { verify } from "@parley/webhooks"
import { constantTimeEqual, deliverySignature, hmacSha256Hex, sha256Hex } from "../../packages/platform/src/crypto.ts"
import { newId } from "../../packages/platform/src/ids.ts"
import { SecretBox } from "../../packages/platform/src/secret-box.ts"
import { DEFAULT_BOOKING_SETTINGS } from "../../services/assistant/src/bookings/settings.ts"
import { type Known, type Need, nothingKnown, step } from "../../services/assistant/src/engine/dialogue.ts"
import { leadOfConversation } from "../../services/assistant/src/engine/lead-capture.ts"
import type { EngineContext } from "../../services/assistant/src/engine/profile.ts"
import { readMessage } from "../../services/assistant/src/engine/read-message.ts"
import { type ConversationState, emptyConversation } from "../../services/assistant/src/engine/state.ts"
import { envelopeBody } from "../../services/dispatcher/src/delivery/envelope.ts"
import { signatureHeaders, signingKeyOf } from "../../services/dispatcher/src/signing/signing.ts"

declare const Deno: { args: ReadonlyArray<string>; version: { deno: string } }

interface Input {
  readonly sealedOnNode: string
  readonly secretKey: string
  readonly secretPlaintext: string
  readonly today: string
}

const input = JSON.parse(Deno.args[0] ?? "{}") as Input

// @parley/platform
const box = SecretBox.fromBase64Key(input.secretKey)
const sealedHere = box.seal("sealed on deno")
const ids = [newId("wh"), newId("dlv"), newId("wh")]

// @parley/contracts: a key body with its checksum parses; one changed character does not.
const keyBody = `parley_${"A1b2C3d4E5f6"}.${"x".repeat(43)}`
const key = `${keyBody}${apiKeyChecksum(keyBody)}`

// The dispatcher's signing, verified as a receiver would.
const delivery = {
  deliveryId: "dlv_4tQ2yK8pX1mN7bV3cZ9wL0",
  eventId: "evt_4tQ2yK8pX1mN7bV3cZ9wL0",
  event: "lead.created",
  timestamp: "2026-11-22T09:30:00.000Z",
  data: { phone: "14155550100", name: "Dana", type: "CALLBACK_REQUESTED", booking: null },
} as unknown as DeliveryRecord
const webhookSecret = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80="
const body = envelopeBody(delivery)
const signature = deliverySignature(body, webhookSecret)
const envelope = await verify(body, { "x-service-signature": signature }, webhookSecret)
const previousSecret = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
const signedAt = Date.now()
const attemptHeaders = signatureHeaders(
  { current: signingKeyOf(webhookSecret), previous: signingKeyOf(previousSecret), previousUntil: signedAt + 60_000 },
  delivery.deliveryId,
  body,
  signedAt,
)
const standardVerified = [
  (await verify(body, attemptHeaders, webhookSecret)).event,
  (await verify(body, attemptHeaders, `whsec_${previousSecret}`)).event,
]

// The assistant's deterministic engine: a callback request, then a booking. The engine is pure: it
// says what it needs of the calendar, and this loop answers as the service's calendar would (every
// offered time free, a booking made).
const context: EngineContext = {
  profile: { businessName: "Demo", languages: ["en"], faqs: [] },
  settings: DEFAULT_BOOKING_SETTINGS,
  today: input.today,
  nowTime: "08:00",
}
const offered = ["09:00", "09:30", "10:00", "10:30"]
const turn = (state: ConversationState, text: string) => {
  const facts = readMessage(text, state, context)
  let known: Known = nothingKnown
  const needs: Array<Need> = []
  for (let round = 0; round < 8; round++) {
    const next = step(state, facts, context, known)
    if (next.kind === "reply") return { needs, text: next.text, state: next.state }
    needs.push(next.need)
    const need = next.need
    if (need.kind === "day") {
      const days = new Map(known.days)
      days.set(need.date, { date: need.date, offered, free: offered })
      known = { ...known, days }
    } else if (need.kind === "book") known = { ...known, booking: { kind: "booked", id: "bkg_deno" } }
    else if (need.kind === "held") known = { ...known, held: null }
    else throw new Error(`the engine asked for ${need.kind}, which this conversation never needs`)
  }
  throw new Error("the engine asked the calendar more than it ever should")
}
const first = turn(emptyConversation, "Hi, I'm Dana. Please call me back at +1 (415) 555-0100")
const second = turn(first.state, "Can I book a consultation on 2026-11-24 at 09:30?")
const booked = second.needs.find((need) => need.kind === "book")

console.log(
  JSON.stringify({
    runtime: `deno ${Deno.version.deno}`,
    ids,
    sha256: sha256Hex("abc"),
    hmac: hmacSha256Hex("key", "The quick brown fox jumps over the lazy dog"),
    constantTime: [constantTimeEqual("same", "same"), constantTimeEqual("same", "diff")],
    openedFromNode: box.open(input.sealedOnNode),
    sealedHere,
    parsedKey: parseApiKey(key)?.prefix ?? null,
    mistypedKey: parseApiKey(`${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}`) ?? null,
    body,
    signature,
    verifiedEvent: envelope.event,
    attemptHeaders,
    standardVerified,
    firstReply: first.text,
    firstLead: leadOfConversation(first.state, "chat") ?? null,
    secondRequest: booked === undefined ? null : { kind: "book", ...booked.slot },
    secondReply: second.text,
    secondLead: leadOfConversation(second.state, "chat") ?? null,
  }),
)
