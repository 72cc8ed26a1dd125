import { normalizePhone } from "@parley/contracts"
import { inPlan } from "@parley/number-plan"
import {
  type CountryCode,
  findPhoneNumbersInText,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from "libphonenumber-js"
import { fold, wordsPattern } from "./text.ts"

/**
 * Finds the visitor's phone number in a message (docs/contract.md §8), as international digits only:
 * `+44 (0) 7700 900456` → `447700900456`, and with the organization's country a national number
 * gets its country code (`(415) 555-0100` in the US → `14155550100`, `0171 2345678` in Germany →
 * `491712345678`).
 *
 * libphonenumber-js finds the candidates and knows every country's number plan (international
 * prefixes like `0049`, the `(0)` of a written international number, trunk prefixes). It accepts
 * what is *possible* for the plan rather than only what is assigned today, so fictional or new
 * ranges (the UK's 07700 900xxx) still count.
 *
 * A number is never a phone when the words just before it name it as something else — an order,
 * invoice, ticket, membership, customer, account, tracking or booking reference — in any of the
 * five languages, unless a phone word comes after that word ("invoice 2026 is wrong, call me at
 * 415…"). Digits glued to letters (`12345678Z`, `BR123456789BR`) are codes.
 *
 * A number the plan does not know is still found (docs/contract.md §8: 7–15 digits, not a
 * reference), with digits all the same — a foreign number written with `00` instead of `+` is read
 * as international (`0049 30 1234567` in the US → `49301234567`), one written with `+` is kept as
 * written, and a national one gets the country's calling code (`912 345 67` in Portugal →
 * `35191234567`) — but it is marked `doubtful` when no country's plan has those digits (`inPlan`):
 * the dialogue asks about it and stores nothing until the visitor confirms it. `inPlan` is
 * `@parley/number-plan`'s, shared with messaging, which refuses such a number outright.
 */

const REFERENCE_WORDS = wordsPattern([
  // en
  "order",
  "orders",
  "invoice",
  "inv",
  "ticket",
  "tracking",
  "membership",
  "member",
  "account",
  "acct",
  "customer number",
  "customer no",
  "customer id",
  "client number",
  "reference",
  "ref",
  "booking reference",
  "confirmation",
  "receipt",
  "case",
  "claim",
  "policy",
  "serial",
  "sku",
  "id",
  "iban",
  "ssn",
  "parcel",
  "shipment",
  "gift card",
  "voucher",
  "gift voucher",
  "zip",
  "zip code",
  "postcode",
  "postal code",
  // es
  "pedido",
  "factura",
  "tarjeta regalo",
  "vale regalo",
  "socio",
  "cliente",
  "localizador",
  "referencia",
  "expediente",
  "seguimiento",
  "cuenta",
  "dni",
  "nie",
  "nif",
  "poliza",
  "albaran",
  "envio",
  "incidencia",
  "codigo postal",
  // de
  "bestellnummer",
  "bestellung",
  "rechnung",
  "rechnungsnummer",
  "kundennummer",
  "kunden-nr",
  "kundennr",
  "mitgliedsnummer",
  "mitglieds-nr",
  "mitglied",
  "sendungsnummer",
  "sendung",
  "vertragsnummer",
  "vertrag",
  "auftragsnummer",
  "auftrag",
  "aktenzeichen",
  "referenz",
  "buchungsnummer",
  "konto",
  "kontonummer",
  "vorgangsnummer",
  "ticketnummer",
  "paket",
  "gutschein",
  "gutscheinnummer",
  "plz",
  "postleitzahl",
  // fr
  "commande",
  "facture",
  "code postal",
  "client",
  "adherent",
  "suivi",
  "dossier",
  "contrat",
  "compte",
  "colis",
  "abonne",
  "bon cadeau",
  "carte cadeau",
  // pt
  "nota fiscal",
  "boleto",
  "protocolo",
  "cep",
  "cpf",
  "cnpj",
  "rastreio",
  "rastreamento",
  "matricula",
  "conta",
  "contrato",
  "chamado",
  "fatura",
  "codigo",
  "ordem",
  "vale-presente",
  "cartao-presente",
])

const PHONE_WORDS = wordsPattern([
  // en
  "call",
  "calls",
  "ring",
  "phone",
  "mobile",
  "cell",
  "tel",
  "telephone",
  "whatsapp",
  "reach",
  "text",
  "contact",
  "my number",
  "phone number",
  "callback",
  // es
  "llamar",
  "llamame",
  "llamadme",
  "llameme",
  "llamen",
  "llamada",
  "telefono",
  "movil",
  "fijo",
  "contacto",
  "mi numero",
  // de
  "anrufen",
  "ruf",
  "rufen",
  "anruf",
  "ruckruf",
  "telefon",
  "telefonnummer",
  "handy",
  "handynummer",
  "mobil",
  "mobilnummer",
  "erreichbar",
  "meine nummer",
  "festnetz",
  // fr
  "appeler",
  "appelez",
  "rappeler",
  "rappelez",
  "appel",
  "rappel",
  "tel",
  "portable",
  "joindre",
  "mon numero",
  // pt
  "ligar",
  "liga",
  "ligue",
  "ligacao",
  "telefone",
  "celular",
  "zap",
  "contato",
  "meu numero",
  "whats",
])

const REFERENCE_WORDS_ALL = new RegExp(REFERENCE_WORDS.source, "gu")
const IN_CASE = /(?<![\p{L}])in\s+case(?![\p{L}])/gu
/** "id love a demo", "id like": "I'd" typed without its apostrophe, no ID number. */
const I_WOULD = /(?<![\p{L}])id\s+(?:love|like|need|want|prefer|rather|be|appreciate)(?![\p{L}])/gu

/** The words between the previous number (or the start) and this one, up to a clause's length. */
const leadIn = (text: string, start: number, previousEnd: number): string =>
  fold(text.slice(Math.max(previousEnd, start - 48), start))

/** Named as a reference by the words before it, with no phone word after that name. */
const namedAsReference = (written: string): boolean => {
  // "just in case: 415 555 0167" names no case number, "id love a call" no ID.
  const before = written.replace(IN_CASE, " ").replace(I_WOULD, " ")
  let last = -1
  for (const match of before.matchAll(REFERENCE_WORDS_ALL)) last = match.index ?? last
  if (last === -1) return false
  return !PHONE_WORDS.test(before.slice(last))
}

const gluedToLetters = (text: string, start: number, end: number): boolean =>
  /[\p{L}_]/u.test(text[start - 1] ?? " ") || /[\p{L}_%]/u.test(text[end] ?? " ")

export interface FoundPhone {
  /** International digits (with the country code; see the module's comment for a number the plan does not know). */
  readonly digits: string
  /**
   * No country's plan has these digits (`inPlan`): checked with the visitor, never recorded as a
   * lead until they confirm or correct it (docs/contract.md §8).
   */
  readonly doubtful: boolean
  readonly start: number
  readonly end: number
}

/** Digit groups with short separators, led by an optional `+` or `(`: the shape of a written phone number. */
const WRITTEN_NUMBER = /\+?\(?\d+\)?(?:[ .\-/]{1,3}\(?\d+\)?)*/g
const CLOCK_OR_DATE = /^\d{1,2}[:.h]\d{2}$|^\d{1,4}[./-]\d{1,2}(?:[./-]\d{1,4})?\.?$/
/**
 * A whole date with its year inside a run of digits ("2026-12-02 10:00", "02/12/2026 10:00"): the
 * date and the hour after it, never a phone number (the run's digits, 2026120210, made one).
 */
const DATED =
  /(?<!\d)(?:(?:19|20)\d{2}-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])|(?:0?[1-9]|[12]\d|3[01])[./-](?:0?[1-9]|1[0-2])[./-](?:19|20)\d{2}|(?:0?[1-9]|1[0-2])\/(?:0?[1-9]|[12]\d|3[01])\/(?:19|20)\d{2})(?!\d)/
/** Longer runs of digits are tables, codes or noise, not something a person writes as a phone number. */
const MAX_WRITTEN = 64

/** Every phone number in `text`, in order; see the module's comment for what counts. */
export const findPhones = (text: string, country: string): ReadonlyArray<FoundPhone> => {
  const found: Array<FoundPhone> = []
  let previousEnd = 0
  const consider = (digits: string, start: number, end: number): void => {
    const before = leadIn(text, start, previousEnd)
    previousEnd = end
    if (gluedToLetters(text, start, end) || namedAsReference(before)) return
    found.push({ digits, start, end, doubtful: !inPlan(digits) })
  }
  // libphonenumber reads each written number on its own: a long message costs no more than its numbers.
  for (const written of text.matchAll(WRITTEN_NUMBER)) {
    const offset = written.index ?? 0
    const segment = written[0]
    if (segment.length > MAX_WRITTEN || segment.replace(/\D/g, "").length < 7 || DATED.test(segment)) continue
    // `extended` is the typed spelling of leniency POSSIBLE (libphonenumber-js's PhoneNumberMatcher).
    const known = findPhoneNumbersInText(segment, { defaultCountry: country as CountryCode, extended: true })
    let covered = false
    for (const match of known) {
      const raw = segment.slice(match.startsAt, match.endsAt)
      if (CLOCK_OR_DATE.test(raw.trim()) || raw.replace(/\D/g, "").length < 7) continue
      covered = true
      consider(match.number.number.replace(/\D/g, ""), offset + match.startsAt, offset + match.endsAt)
    }
    if (covered) continue
    // What the number plan does not know: `00` as the international prefix, `+` as written, else a
    // national number of the organization's country.
    const digits = segment.replace(/\D/g, "")
    if (digits.length > 15 || CLOCK_OR_DATE.test(segment.trim())) continue
    const international = digits.startsWith("00") ? parsePhoneNumberFromString(`+${digits.slice(2)}`) : undefined
    consider(
      international?.isPossible() === true
        ? international.number.slice(1)
        : segment.trimStart().startsWith("+")
          ? digits
          : nationalToInternational(digits, country),
      offset,
      offset + segment.length,
    )
  }
  return found
}

/**
 * A national number the country's plan does not know (a length it does not use, a range not yet in
 * the metadata), in international digits all the same: with the country's calling code (`0800 123
 * 456` in Portugal → `3510800123456`). Digits as written when that would pass 15 digits or the
 * country has no plan.
 */
const nationalToInternational = (digits: string, country: string): string => {
  if (!isSupportedCountry(country)) return digits
  // libphonenumber-js reads the number with the country's plan all the same (its calling code, its
  // trunk prefix where dropping it leaves a number of a length the plan uses).
  const international = parsePhoneNumberFromString(digits, country)?.number.slice(1)
  return international === undefined || international.length > 15 ? digits : international
}

/** The first phone number in `text`, or `undefined`. */
export const findPhone = (text: string, country: string): FoundPhone | undefined => findPhones(text, country)[0]

/**
 * A number given in a form field (the widget's `visitor.phone`, the booking form's `phone`) as
 * international digits, read with the organization's country (see `findPhones` for a number the
 * plan does not know).
 */
export const internationalDigits = (raw: string, country: string): string =>
  findPhone(raw, country)?.digits ?? normalizePhone(raw)
