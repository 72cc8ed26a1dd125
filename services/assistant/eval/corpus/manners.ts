import { at, type Conversation, conversation, lead } from "./types.ts"

const BOOK = "BOOKING"
const CALL = "CALLBACK_REQUESTED"

/**
 * Three manners a tester walking the product found missing: a question asked beside a booking
 * request is answered and the booking carried on in the same reply; a "hello" to the widget, which
 * showed the greeting already, is asked what the visitor needs instead of greeted again; a name sent
 * after a booking made without one is thanked for and kept on the lead (on a phone channel the
 * booking never asks it: `src/engine/dialogue.test.ts`; here a visitor who skipped the question).
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")

/** The widget's greeting, which a "hello" must not repeat. */
const GREETED = ["welcome", "bienvenid", "willkommen", "bienvenue", "bem-vind"]

export const MANNERS: ReadonlyArray<Conversation> = [
  // A question beside a booking request: the answer, then the booking's next step; nothing booked unasked.
  en(
    "manners-hours-and-booking",
    "booking",
    [
      {
        say: "What are your opening hours? I'd like to book a consultation on Friday",
        says: ["Monday to Friday 9:00 AM–6:00 PM", "Friday, November 27: 9:00 AM"],
      },
      "10:30",
      "I'm Dana Lee, 415 555 0142",
    ],
    lead("14155550142", "Dana Lee", BOOK, at("2026-11-27", "10:30")),
  ),
  en(
    "manners-parking-and-booking",
    "booking",
    [
      {
        say: "Do you have parking? Can I book a consultation tomorrow at 2pm?",
        says: ["Mill Lane", "2:00 PM", "name"],
      },
      "Sam Porter, 415 555 0177",
    ],
    lead("14155550177", "Sam Porter", BOOK, at("2026-11-26", "14:00")),
  ),
  en(
    "manners-open-saturday-no-booking",
    "hours-services",
    [
      {
        say: "Are you open on Saturday? I'd like to book a consultation",
        says: ["On Saturday we're open 10:00 AM–2:00 PM", "Which time would you like?"],
      },
    ],
    null,
  ),
  // The day the booking request names, not the one the question asks about.
  en(
    "manners-saturday-asked-monday-booked",
    "booking",
    [
      {
        say: "Are you open on Saturday? I'd like to book a consultation on Monday at 10",
        says: ["On Saturday we're open", "Monday, November 30 at 10:00 AM"],
        never: ["Saturday, November 28 at"],
      },
      "I'm Ruth Park, 415 555 0179",
    ],
    lead("14155550179", "Ruth Park", BOOK, at("2026-11-30", "10:00")),
  ),
  de(
    "manners-samstag-gefragt-montag-gebucht",
    "booking",
    [
      { say: "Habt ihr am Samstag offen? Ich möchte am Montag um 10 Uhr einen Termin buchen.", says: ["Samstag"] },
      { say: "Beratung", says: ["Montag, 30. November um 10:00"] },
      "Lena Vogt, 0171 0001179",
    ],
    lead("491710001179", "Lena Vogt", BOOK, at("2026-11-30", "10:00")),
  ),
  es(
    "manners-aparcamiento-y-cita",
    "booking",
    [
      {
        say: "¿Tenéis aparcamiento? Quiero reservar una consulta el viernes a las 11",
        says: ["aparcamiento|parking", "11:00"],
      },
      "Soy Marta Gil, 612 000 177",
    ],
    lead("34612000177", "Marta Gil", BOOK, at("2026-11-27", "11:00")),
  ),
  de(
    "manners-zeiten-und-termin",
    "booking",
    [
      { say: "Wann habt ihr geöffnet? Ich möchte am Freitag einen Termin buchen.", says: ["Montag bis Freitag"] },
      { say: "Beratung", says: ["Freitag, 27. November: 9:00"] },
      "10:30 Uhr passt",
      "Jonas Weber, 0171 0001177",
    ],
    lead("491710001177", "Jonas Weber", BOOK, at("2026-11-27", "10:30")),
  ),
  fr(
    "manners-horaires-et-rendez-vous",
    "booking",
    [
      {
        say: "Quels sont vos horaires ? Je voudrais réserver une consultation vendredi.",
        says: ["du lundi au vendredi", "vendredi 27 novembre : 9:00"],
      },
      "10h30",
      "Claire Martin, 06 00 01 11 77",
    ],
    lead("33600011177", "Claire Martin", BOOK, at("2026-11-27", "10:30")),
  ),
  pt(
    "manners-estacionamento-e-horario",
    "booking",
    [
      {
        say: "Vocês têm estacionamento? Quero agendar uma consulta na sexta às 10h",
        says: ["estacionamento", "10:00"],
      },
      "João Silva, (11) 90000-1177",
    ],
    lead("5511900001177", "João Silva", BOOK, at("2026-11-27", "10:00")),
  ),
  // A "hello" on the widget: what they need asked, the greeting not said again.
  en(
    "manners-hello",
    "general",
    [{ say: "Hello", says: ["book an appointment", "call you back"], never: GREETED }, "what are your hours?"],
    null,
  ),
  es("manners-hola", "general", [{ say: "hola", says: ["reservarte una cita"], never: GREETED }], null),
  de("manners-hallo", "general", [{ say: "Hallo", says: ["Termin"], never: GREETED }], null),
  fr("manners-bonjour", "general", [{ say: "bonjour", says: ["rendez-vous"], never: GREETED }], null),
  pt("manners-ola", "general", [{ say: "olá", says: ["agendar um horário"], never: GREETED }], null),
  // A name sent after a booking made without one: thanked by name, kept on the lead, no menu.
  en(
    "manners-name-after-booking",
    "name",
    [
      "I'd like to book a consultation on Friday at 10:30",
      "yes please",
      "415 555 0178",
      { say: "Dana Reyes", says: ["Dana Reyes", "Friday, November 27"], never: ["What would you like to do"] },
    ],
    lead("14155550178", "Dana Reyes", BOOK, at("2026-11-27", "10:30")),
  ),
  es(
    "manners-nombre-tras-reserva",
    "name",
    [
      "Quiero reservar una consulta el viernes a las 10:30",
      "sí",
      "612 000 178",
      { say: "Lucía Romero", says: ["Lucía Romero", "viernes"], never: ["Qué necesitas"] },
    ],
    lead("34612000178", "Lucía Romero", BOOK, at("2026-11-27", "10:30")),
  ),
  // A name and number given while offered times wait for a choice: noted, the time asked again, then booked.
  en(
    "manners-number-before-time",
    "booking",
    [
      "Can I book a consultation on Friday?",
      { say: "I'm Dana Cole, 415 555 0181", says: ["Which time"], never: ["get back to you"] },
      "10:30",
    ],
    lead("14155550181", "Dana Cole", BOOK, at("2026-11-27", "10:30")),
  ),
  fr(
    "manners-numero-avant-heure",
    "booking",
    [
      "Je voudrais réserver une consultation vendredi",
      { say: "Je suis Claire Morel, 06 12 34 56 78", says: ["créneau"], never: ["reviendra vers vous"] },
      "10h30",
    ],
    lead("33612345678", "Claire Morel", BOOK, at("2026-11-27", "10:30")),
  ),
  // Asked for no more messages in a sentence (the widget: no stop word applies, not contacted unless
  // they ask); never the menu, and the request they made before stays on the lead.
  en(
    "manners-stop-messaging",
    "general",
    [{ say: "please stop messaging me", says: ["won't contact you"], never: ["What would you like to do"] }],
    null,
  ),
  en(
    "manners-unsubscribe-after-callback",
    "correction",
    [
      "Hi, I'm Dana Cole, could you call me back on 415 555 0179?",
      { say: "unsubscribe me", says: ["unless you ask"], never: ["What would you like to do"] },
      { say: "no more messages please", says: ["won't contact you"], never: ["What would you like to do"] },
    ],
    lead("14155550179", "Dana Cole", CALL),
  ),
  es(
    "manners-no-mas-mensajes",
    "general",
    [{ say: "no me envíen más mensajes", says: ["no te contactaremos"], never: ["Qué necesitas"] }],
    null,
  ),
  de(
    "manners-keine-nachrichten",
    "general",
    [{ say: "bitte keine Nachrichten mehr", says: ["wir melden uns nur"], never: ["Was möchten Sie tun"] }],
    null,
  ),
  fr(
    "manners-arretez-messages",
    "general",
    [{ say: "arrêtez de m'envoyer des messages", says: ["ne vous contacterons pas"], never: ["Que souhaitez-vous"] }],
    null,
  ),
  pt(
    "manners-parem-mensagens",
    "general",
    [{ say: "parem de me mandar mensagens", says: ["não vamos entrar em contato"], never: ["O que você precisa"] }],
    null,
  ),
]
