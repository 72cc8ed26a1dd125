import type { OutgoingRecord } from "@parley/bus"
import {
  type ChannelKind,
  ChannelOutbound,
  encodeBusValue,
  type OptOutRecord,
  type OrgId,
  Topics,
} from "@parley/contracts"
import { Database } from "@parley/db"
import { decodePageCursor } from "@parley/platform"
import { Effect } from "effect"
import type postgres from "postgres"
import { ListKeys, pageOf } from "../paging/paging.ts"

/**
 * Opt-out by keyword (docs/contract.md §9): a customer message whose whole text — any case, accents
 * aside, white space, punctuation and symbols around it aside — is a stop word records the sender as
 * opted out (source `keyword`); `START` reverses it. Each is confirmed once, in the stop word's
 * language, when it changed something: a second STOP is not answered again. A keyword message is not
 * a conversation turn, so it does not go to the assistant (whose reply would be a second answer);
 * `message.inbound` still fires.
 */
type Language = "en" | "fr" | "es" | "de" | "pt"

const STOP_WORDS: ReadonlyMap<string, Language> = new Map([
  ["stop", "en"],
  ["unsubscribe", "en"],
  ["stopall", "en"],
  ["cancel", "en"],
  ["end", "en"],
  ["quit", "en"],
  ["arret", "fr"],
  ["baja", "es"],
  ["abmelden", "de"],
  ["parar", "pt"],
])

/** What the opt-out stops is marketing (§9): replies and UTILITY templates still go, so the text says so. */
const STOPPED: Record<Language, string> = {
  en: "You have been unsubscribed and will receive no more marketing messages from us. Reply START to subscribe again.",
  fr: "Vous êtes désabonné(e) et ne recevrez plus de messages promotionnels de notre part. Répondez START pour vous réabonner.",
  es: "Se ha dado de baja y no recibirá más mensajes promocionales nuestros. Responda START para volver a suscribirse.",
  de: "Sie wurden abgemeldet und erhalten keine Werbenachrichten mehr von uns. Antworten Sie START, um sich wieder anzumelden.",
  pt: "A sua inscrição foi cancelada e não receberá mais mensagens promocionais nossas. Responda START para se inscrever novamente.",
}
const STARTED = "You are subscribed again. Reply STOP to unsubscribe."
/** START from a number that had not opted out: answered all the same, never left without a reply. */
const ALREADY_SUBSCRIBED = "You are subscribed. Reply STOP to unsubscribe."

export type OptOutKeyword = { readonly action: "stop"; readonly language: Language } | { readonly action: "start" }

/**
 * What may surround the word and still leave it the whole text: white space, punctuation and symbols
 * (`STOP.`, `Stop!`, `«STOP»`, `stop 🛑`), with the joiners and variation selectors of emoji sequences.
 * Only at the ends: `please stop` is a sentence, not a keyword.
 */
const AROUND_THE_WORD = /^[\s\p{P}\p{S}\p{Cf}]+|[\s\p{P}\p{S}\p{Cf}]+$/gu

/** The keyword a message's whole text is, if it is one. */
export const optOutKeyword = (text: string): OptOutKeyword | undefined => {
  if (text.length > 64) return undefined
  const word = text.normalize("NFD").replace(/\p{M}/gu, "").replace(AROUND_THE_WORD, "").toLowerCase()
  if (word === "start") return { action: "start" }
  const language = STOP_WORDS.get(word)
  return language === undefined ? undefined : { action: "stop", language }
}

/**
 * Applies a keyword in the ingesting transaction; answers the confirmation to append with the
 * inbound message's records (none when nothing changed). The confirmation is a
 * `parley.channel.outbound.v1` record answering the message, so it is sent by the same consumer as
 * every reply, once per inbound message however often the provider redelivers it.
 */
export const applyOptOutKeyword = (
  tx: postgres.TransactionSql,
  keyword: OptOutKeyword,
  message: { orgId: OrgId; channel: ChannelKind; phone: string; messageId: string },
) =>
  Effect.gen(function* () {
    const changed = yield* Effect.promise(() =>
      keyword.action === "stop"
        ? tx`
            insert into messaging.opt_outs (org_id, phone, source) values (${message.orgId}, ${message.phone}, 'keyword')
            on conflict (org_id, phone) do nothing returning 1`
        : tx`delete from messaging.opt_outs where org_id = ${message.orgId} and phone = ${message.phone} returning 1`,
    )
    // A second STOP is not answered again (§9: once); a START that changed nothing still gets an answer.
    if (changed.length === 0 && keyword.action === "stop") return []
    const confirmation: OutgoingRecord = {
      topic: Topics.channelOutbound,
      key: message.orgId,
      value: encodeBusValue(ChannelOutbound, {
        orgId: message.orgId,
        channel: message.channel,
        to: message.phone,
        text: keyword.action === "stop" ? STOPPED[keyword.language] : changed.length > 0 ? STARTED : ALREADY_SUBSCRIBED,
        inReplyTo: message.messageId,
      }),
    }
    return [confirmation]
  })

interface OptOutRow {
  phone: string
  source: string
  opted_out_at: Date
  cursor_at: string
  id: string
}

/** `GET /api/contacts/opt-outs`, newest first; `undefined` for a cursor this service did not issue. */
export const listOptOuts = (orgId: OrgId, limit: number, cursor: string | undefined) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const after = cursor === undefined ? undefined : decodePageCursor(cursor, ListKeys.optOuts)
    if (cursor !== undefined && after === undefined) return undefined
    const rows = yield* Effect.promise(
      () => sql<Array<OptOutRow>>`
        select phone, source, opted_out_at, opted_out_at::text as cursor_at, phone as id from messaging.opt_outs
        where org_id = ${orgId}
          ${after === undefined ? sql`` : sql`and (opted_out_at, phone) < (${after.at}::text::timestamptz, ${after.key})`}
        order by opted_out_at desc, phone desc limit ${limit + 1}`,
    )
    return pageOf(
      rows,
      limit,
      (row): OptOutRecord => ({ phone: row.phone, optedOutAt: row.opted_out_at.toISOString(), source: row.source }),
    )
  })

/** `DELETE /api/contacts/opt-outs/:phone`: the customer asked to receive marketing again. */
export const removeOptOut = (orgId: OrgId, phone: string) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    yield* Effect.promise(() => sql`delete from messaging.opt_outs where org_id = ${orgId} and phone = ${phone}`)
  })
