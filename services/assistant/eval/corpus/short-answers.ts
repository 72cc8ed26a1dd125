import { at, type Conversation, conversation, lead } from "./types.ts"

const BOOK = "BOOKING"

/**
 * A short answer after a reply ("yes please", "no thanks", "thanks!", "great", "👍", "vale, gracias",
 * "super, danke!") is the answer to what that reply asked, in the conversation's language: after a
 * booking a closing that says its day and time again, never the menu; a "yes" to a closed day's
 * next open day its times; a "no" to a slot or times offered another day asked; after an answer or
 * a callback noted, a short closing. Nothing is booked or cancelled on such an answer unless it
 * accepts a slot proposed (docs/contract.md §8).
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")

const MENU_EN = "What would you like to do"

export const SHORT_ANSWERS: ReadonlyArray<Conversation> = [
  en(
    "short-after-booking",
    "booking",
    [
      "I'd like a consultation on Friday at 10am",
      "Dana Reyes",
      "415 555 0181",
      { say: "yes please", says: ["Friday, November 27", "10:00 AM"], never: [MENU_EN] },
      { say: "thanks!", says: ["You're welcome, Dana Reyes", "Friday, November 27"], never: [MENU_EN] },
    ],
    lead("14155550181", "Dana Reyes", BOOK, at("2026-11-27", "10:00")),
  ),
  en(
    "short-proposed-no",
    "booking",
    [
      "Can I come in at 3pm?",
      { say: "consultation", says: ["Shall I book"] },
      { say: "no thanks", says: ["Which other day or time"], never: ["booked", MENU_EN] },
      "Friday at 11 then, I'm Ray Cole, 415 555 0182",
    ],
    lead("14155550182", "Ray Cole", BOOK, at("2026-11-27", "11:00")),
  ),
  en(
    "short-closed-yes",
    "closed-past",
    [
      { say: "can I book a consultation on Sunday?", says: ["closed"] },
      { say: "yes please", says: ["Monday, November 30", "9:00 AM"], never: ["booked", MENU_EN] },
      "10:30, Mia Park, 415 555 0183",
    ],
    lead("14155550183", "Mia Park", BOOK, at("2026-11-30", "10:30")),
  ),
  en(
    "short-answer-ok",
    "hours-services",
    [
      { say: "are you open on Saturday?", says: ["10:00 AM"] },
      { say: "great", never: [MENU_EN] },
    ],
    null,
  ),
  en(
    "short-callback-ok",
    "callback",
    ["please call me back, 415 555 0184", { say: "👍", never: [MENU_EN, "phone number"] }],
    lead("14155550184", "", "CALLBACK_REQUESTED"),
  ),
  en(
    "short-cancel-no",
    "cancel-move",
    [
      "book a consultation on Thursday at 2pm, I'm Lee Chan, 415 555 0185",
      { say: "cancel it please", says: ["cancelled"] },
      { say: "no thanks", never: [MENU_EN, "booked", "Which day"] },
    ],
    lead("14155550185", "Lee Chan", BOOK, null),
  ),
  en(
    "short-mismatch-yes",
    "dates",
    [
      { say: "can I book Thursday the 4th at 10?", says: ["did you mean"] },
      { say: "yes", says: ["did you mean"], never: ["booked", MENU_EN] },
      "Friday please, Sam Ortiz, 415 555 0186",
      "consultation",
    ],
    lead("14155550186", "Sam Ortiz", BOOK, at("2026-12-04", "10:00")),
  ),
  es(
    "short-after-booking",
    "booking",
    [
      "Quiero una consulta el viernes a las 10",
      "Lucía Gómez",
      "612 345 678",
      { say: "vale, gracias", says: ["De nada, Lucía Gómez", "viernes, 27 de noviembre"], never: ["Qué necesitas"] },
    ],
    lead("34612345678", "Lucía Gómez", BOOK, at("2026-11-27", "10:00")),
  ),
  de(
    "short-after-booking",
    "booking",
    [
      "Ich möchte eine Beratung am Freitag um 10 Uhr",
      "Jonas Weber",
      "0151 23456789",
      {
        say: "super, danke!",
        says: ["Gern geschehen, Jonas Weber", "Freitag, 27. November"],
        never: ["Was möchten Sie tun"],
      },
    ],
    lead("4915123456789", "Jonas Weber", BOOK, at("2026-11-27", "10:00")),
  ),
  fr(
    "short-times-no",
    "booking",
    [
      { say: "Je voudrais une consultation vendredi", says: ["vendredi 27 novembre"] },
      { say: "non", says: ["Quel autre jour"], never: ["Que souhaitez-vous faire"] },
      "lundi à 11h, Claire Martin, 06 12 34 56 78",
    ],
    lead("33612345678", "Claire Martin", BOOK, at("2026-11-30", "11:00")),
  ),
  pt(
    "short-after-booking",
    "booking",
    [
      "Quero agendar uma consulta na sexta às 10h",
      "Ana Souza",
      "(11) 91234-5678",
      { say: "👍", says: ["Tudo certo, Ana Souza", "27 de novembro"], never: ["O que você precisa"] },
    ],
    lead("5511912345678", "Ana Souza", BOOK, at("2026-11-27", "10:00")),
  ),
]
