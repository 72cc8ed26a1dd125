/**
 * docs/contract.md §12: @parley/webhooks' results agree with the `standardwebhooks` npm package on the
 * same inputs. Each row is a delivery as a receiver gets it (body, Standard Webhooks headers, the
 * receiver's secret, the receiver's clock); both libraries judge it, and both must come to the
 * verdict the row states. The package is a devDependency of this workspace only: the receiver
 * library itself depends on nothing of it.
 */
import { createHmac } from "node:crypto"
import { sampleEnvelope } from "@parley/webhooks/testing"
import { describe, expect, it } from "vitest"
import { parleyAt, standardAt } from "./support/receiver-clock.ts"

const keyBytes = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 53 + 7) % 256))
const otherBytes = Buffer.alloc(32, 0x5a)
const whsec = (bytes: Buffer) => `whsec_${bytes.toString("base64")}`
const id = "dlv_4tQ2yK8pX1mN7bV3cZ9wL0"
const now = 1_790_000_000 // the receiver's clock in these rows, Unix seconds
const body = JSON.stringify(sampleEnvelope("lead.updated"))

/** `v1,<base64 HMAC>` of `<id>.<timestamp>.<body>` under a key's bytes: the Standard Webhooks signature. */
const v1 = (bytes: Buffer, content = body, signedId = id, timestamp = now) =>
  `v1,${createHmac("sha256", bytes).update(`${signedId}.${timestamp}.${content}`).digest("base64")}`

interface Row {
  readonly case: string
  readonly verdict: "accepted" | "refused"
  readonly headers: Record<string, string>
  readonly body?: string
  readonly secret?: string
}

const headers = (signature: string, timestamp: number | string = now, extra: Record<string, string> = {}) => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": signature,
  ...extra,
})
const without = (name: "webhook-id" | "webhook-timestamp" | "webhook-signature") => {
  const { [name]: _, ...rest } = headers(v1(keyBytes))
  return rest
}
const good = v1(keyBytes)
const goodSignature = good.slice(3)

const table: ReadonlyArray<Row> = [
  { case: "one signature by the key", verdict: "accepted", headers: headers(good) },
  {
    case: "the secret in its base64 form, without whsec_",
    verdict: "accepted",
    headers: headers(good),
    secret: keyBytes.toString("base64"),
  },
  {
    case: "the key's signature first of two (after a rotation)",
    verdict: "accepted",
    headers: headers(`${good} ${v1(otherBytes)}`),
  },
  {
    case: "the key's signature second of two (a receiver still on the previous key)",
    verdict: "accepted",
    headers: headers(`${v1(otherBytes)} ${good}`),
  },
  {
    case: "an entry of another version before it",
    verdict: "accepted",
    headers: headers(`v2,${goodSignature} ${good}`),
  },
  { case: "entries separated by two spaces", verdict: "accepted", headers: headers(`${v1(otherBytes)}  ${good}`) },
  {
    case: "header names in capitals",
    verdict: "accepted",
    headers: { "Webhook-Id": id, "WEBHOOK-TIMESTAMP": String(now), "Webhook-Signature": good },
  },
  {
    case: "signed 300 s before the receiver's clock",
    verdict: "accepted",
    headers: headers(v1(keyBytes, body, id, now - 300), now - 300),
  },
  {
    case: "signed 300 s after the receiver's clock",
    verdict: "accepted",
    headers: headers(v1(keyBytes, body, id, now + 300), now + 300),
  },
  {
    case: "a timestamp with trailing characters, read as its leading integer",
    verdict: "accepted",
    headers: headers(good, `${now}.75`),
  },
  {
    case: "a body changed by one character",
    verdict: "refused",
    headers: headers(good),
    body: body.replace("Dana", "Dina"),
  },
  { case: "a body with a trailing newline", verdict: "refused", headers: headers(good), body: `${body}\n` },
  { case: "another secret", verdict: "refused", headers: headers(good), secret: whsec(otherBytes) },
  { case: "signed for another webhook-id", verdict: "refused", headers: headers(v1(keyBytes, body, "dlv_other")) },
  { case: "a webhook-timestamp other than the one signed", verdict: "refused", headers: headers(good, now + 1) },
  {
    case: "signed 301 s before the receiver's clock",
    verdict: "refused",
    headers: headers(v1(keyBytes, body, id, now - 301), now - 301),
  },
  {
    case: "signed 301 s after the receiver's clock",
    verdict: "refused",
    headers: headers(v1(keyBytes, body, id, now + 301), now + 301),
  },
  {
    case: "signed a day before (a captured request replayed)",
    verdict: "refused",
    headers: headers(v1(keyBytes, body, id, now - 86_400), now - 86_400),
  },
  { case: "no webhook-id", verdict: "refused", headers: without("webhook-id") },
  { case: "no webhook-timestamp", verdict: "refused", headers: without("webhook-timestamp") },
  { case: "no webhook-signature", verdict: "refused", headers: without("webhook-signature") },
  { case: "an empty webhook-signature", verdict: "refused", headers: headers("") },
  { case: "a timestamp that is not a number", verdict: "refused", headers: headers(good, "now") },
  { case: "the signature without its version", verdict: "refused", headers: headers(goodSignature) },
  { case: "the signature under version V1", verdict: "refused", headers: headers(`V1,${goodSignature}`) },
  { case: "the signature under version v2 only", verdict: "refused", headers: headers(`v2,${goodSignature}`) },
  { case: "the signature without its padding", verdict: "refused", headers: headers(good.replace(/=+$/, "")) },
  {
    case: "the signature in URL-safe base64, unpadded",
    verdict: "refused",
    headers: headers(`v1,${Buffer.from(goodSignature, "base64").toString("base64url")}`),
  },
  {
    case: "the hex signature of the same HMAC",
    verdict: "refused",
    headers: headers(`v1,${Buffer.from(goodSignature, "base64").toString("hex")}`),
  },
  { case: "two entries joined by a comma", verdict: "refused", headers: headers(`${v1(otherBytes)},${good}`) },
  {
    case: "the signature of the body alone (X-Service-Signature's message)",
    verdict: "refused",
    headers: headers(`v1,${createHmac("sha256", keyBytes).update(body).digest("base64")}`),
  },
]

describe("@parley/webhooks and standardwebhooks", () => {
  it("the table covers both verdicts", () => {
    expect(table.filter((row) => row.verdict === "accepted").length).toBeGreaterThanOrEqual(8)
    expect(table.filter((row) => row.verdict === "refused").length).toBeGreaterThanOrEqual(15)
  })

  it.each(table)("agree on $case: $verdict", async (row) => {
    const secret = row.secret ?? whsec(keyBytes)
    const content = row.body ?? body
    const theirs = standardAt(now * 1000, secret, content, row.headers)
    const ours = await parleyAt(now * 1000, secret, content, row.headers)
    expect({ standardwebhooks: theirs.accepted, parley: ours.accepted }).toEqual({
      standardwebhooks: row.verdict === "accepted",
      parley: row.verdict === "accepted",
    })
    if (theirs.accepted && ours.accepted) expect(ours.value).toEqual(theirs.value)
    // Ours says why, by tag: never a body error, since every body here is a valid envelope.
    if (!ours.accepted) expect(["MissingHeader", "InvalidSignature", "TimestampOutsideTolerance"]).toContain(ours.why)
  })
})
