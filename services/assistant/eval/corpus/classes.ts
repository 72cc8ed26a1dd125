import { at, type Conversation, conversation, lead } from "./types.ts"

const CALL = "CALLBACK_REQUESTED"
const BOOK = "BOOKING"
const INFO = "GENERAL_INQUIRY"

/**
 * One or two conversations for each class of failure the second held-out set showed (issue #23),
 * written afresh for this corpus's business, never copied from a held-out set: a word for "tomorrow"
 * inside "in the morning" or "good morning", a weekday glued to its part of the day, a short word
 * for today, an hour written in words after "at", a day and a service asked together (a booking,
 * not the service's price), a question beside a number, callbacks and names as people write them, a
 * gift card's number, a move to the weekday named after "to", an idiom for a price, a place named as
 * the object of another question ("can she pay at your office?" asks about paying, not where).
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")

export const CLASSES: ReadonlyArray<Conversation> = [
  es(
    "class-morning-01",
    "dates",
    ["Quería una consulta el viernes, sobre las 11 de la mañana. Soy Marta Gil, 612 300 401"],
    lead("34612300401", "Marta Gil", BOOK, at("2026-11-27", "11:00")),
  ),
  de(
    "class-morning-02",
    "dates",
    ["Guten Morgen, geht eine Beratung am Freitag um 11 Uhr? Tobias Brandt, 0170 5550101"],
    lead("491705550101", "Tobias Brandt", BOOK, at("2026-11-27", "11:00")),
  ),
  de(
    "class-compound-weekday",
    "dates",
    ["Hätten Sie Montagnachmittag um drei noch einen Termin frei? Ich bin Jana Krüger, 0151 2223334", "Beratung"],
    lead("491512223334", "Jana Krüger", BOOK, at("2026-11-30", "15:00")),
  ),
  es(
    "class-today-short",
    "dates",
    ["¿Me daríais cita hoy a las cuatro y media? Me llamo Pablo Ortiz, 612 300 402", "consulta"],
    lead("34612300402", "Pablo Ortiz", BOOK, at("2026-11-25", "16:30")),
  ),
  en(
    "class-hour-in-words",
    "dates",
    ["could I book a consultation tomorrow at four? I'm Sam Reyes, 415 555 0190"],
    lead("14155550190", "Sam Reyes", BOOK, at("2026-11-26", "16:00")),
  ),
  pt(
    "class-hour-in-words",
    "dates",
    ["Dá para marcar um treinamento amanhã às três? Sou a Rita Lopes, (11) 98765-4301"],
    lead("5511987654301", "Rita Lopes", BOOK, at("2026-11-26", "15:00", "treinamento")),
  ),
  fr(
    "class-day-and-service",
    "booking",
    [{ say: "Il vous reste de la place jeudi pour une formation ?", says: ["26"] }],
    null,
  ),
  fr(
    "class-this-morning",
    "booking",
    [{ say: "Je peux venir ce matin pour une consultation ?", says: ["25"], never: ["€"] }],
    null,
  ),
  en(
    "class-question-and-number",
    "general",
    [{ say: "Does it work with Shopify? Leaving my number in case: 415 555 0191", says: ["WooCommerce"] }],
    lead("14155550191", "", INFO),
  ),
  de(
    "class-question-and-number",
    "general",
    [{ say: "Sind die Daten bei euch sicher? Meine Nummer, falls Rückfragen: 0170 5550102", says: ["DSGVO"] }],
    lead("491705550102", "", INFO),
  ),
  de("class-callback-kurz", "callback", ["Ruf mich doch kurz an, 0170 5550103"], lead("491705550103", "", CALL)),
  pt(
    "class-callback-liguem",
    "callback",
    ["Liguem-me quando puderem, (11) 98765-4302"],
    lead("5511987654302", "", CALL),
  ),
  fr(
    "class-gift-card",
    "reference",
    ["J'ai un bon cadeau 55501234 qui ne passe pas, rappelez-moi au 06 12 30 04 06"],
    lead("33612300406", "", CALL),
    ["55501234"],
  ),
  en(
    "class-gift-card",
    "reference",
    ["my gift card 77781234 won't go through, call me at 415 555 0192"],
    lead("14155550192", "", CALL),
    ["77781234"],
  ),
  de(
    "class-name-particle",
    "name",
    ["Hier ist Anna von Berg, rufen Sie mich bitte an: 0170 5550104"],
    lead("491705550104", "Anna von Berg", CALL),
  ),
  pt(
    "class-name-chamo-me",
    "name",
    ["Chamo-me Tiago Matos, liguem-me para (11) 98765-4303"],
    lead("5511987654303", "Tiago Matos", CALL),
  ),
  pt(
    "class-second-copy",
    "reference",
    ["Preciso da segunda via do boleto 2026/0099, liguem-me: (11) 98765-4304"],
    lead("5511987654304", "", CALL),
  ),
  en(
    "class-move-to-weekday",
    "cancel-move",
    [
      "book me a consultation Friday at 2pm, I'm Lee Park, 415 555 0193",
      { say: "Friday's no good after all, could you move it to Monday, same time?", says: ["Monday"] },
    ],
    lead("14155550193", "Lee Park", BOOK, at("2026-11-30", "14:00")),
  ),
  en(
    "class-object-not-place",
    "faq",
    [{ say: "my colleague is coming in my place, can she pay by card at your office?", says: ["Mastercard"] }],
    null,
  ),
  en("class-idiom-price", "faq", [{ say: "what would a plan set me back each month?", says: ["$29"] }], null),
]
