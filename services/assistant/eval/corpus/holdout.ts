import { at, type Conversation, conversation, lead } from "./types.ts"

const CALL = "CALLBACK_REQUESTED"
const DEMO = "DEMO_REQUESTED"
const BOOK = "BOOKING"
const INFO = "GENERAL_INQUIRY"

/**
 * Conversations written after the engine was built, and first run without changing it for them:
 * the corpus's check on fitting. Their first score is in the README (34/40); they count in the table
 * since. fr-holdout-02's "jeudi prochain", said on a Wednesday, was first expected as the next day;
 * read again, it is the Thursday of next week (tomorrow would be "demain"), as chrono reads it.
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")

export const HOLDOUT: ReadonlyArray<Conversation> = [
  en(
    "holdout-01",
    "callback",
    ["hey there! could u give me a ring at (646) 555-0123 when u get a chance"],
    lead("16465550123", "", CALL),
  ),
  en(
    "holdout-02",
    "booking",
    [
      "Do you have anything open next Monday morning?",
      "9:30 is perfect",
      "Name's Priscilla Owens",
      "cell 917 555 0142",
    ],
    lead("19175550142", "Priscilla Owens", BOOK, at("2026-11-30", "09:30")),
  ),
  en("holdout-03", "faq", [{ say: "What does a plan cost per month roughly?", says: ["$29"] }], null),
  en(
    "holdout-04",
    "reference",
    ["Hi, regarding invoice #88231004 — I was charged twice. Please call me at 212-555-0182"],
    lead("12125550182", "", CALL),
    ["88231004"],
  ),
  en(
    "holdout-05",
    "dates",
    ["Could I book a consultation on Dec 7 at 3:30 pm? I'm Omar, 212 555 0183"],
    lead("12125550183", "Omar", BOOK, at("2026-12-07", "15:30")),
  ),
  en(
    "holdout-06",
    "demo",
    ["We're a chain of 4 bakeries, would love to see a demo. Contact: Helen, 312.555.0184"],
    lead("13125550184", "Helen", DEMO),
  ),
  en(
    "holdout-07",
    "closed-past",
    [{ say: "book me in for sunday 10am", says: ["closed"] }, "monday 10am then, Tom 212 555 0185", "consultation"],
    lead("12125550185", "Tom", BOOK, at("2026-11-30", "10:00")),
  ),
  en("holdout-08", "general", ["what's the difference between your plans?"], null),
  en("holdout-09", "unknown", [{ say: "do you have a job opening for a designer?", never: ["$29"] }], null),
  en(
    "holdout-10",
    "name",
    ["This is Jennifer from Lakeside Pharmacy, please call me back, 207-555-0186"],
    lead("12075550186", "Jennifer", CALL),
  ),
  es(
    "holdout-01",
    "callback",
    ["Buenas, ¿me puede llamar alguien? Soy Rosa Martínez, 677 88 99 00"],
    lead("34677889900", "Rosa Martínez", CALL),
  ),
  es(
    "holdout-02",
    "booking",
    ["quería reservar una consulta para el martes que viene", "a las 12:30", "Andrés, 655 123 456"],
    lead("34655123456", "Andrés", BOOK, at("2026-12-01", "12:30")),
  ),
  es("holdout-03", "faq", [{ say: "¿Cuál es el precio mensual?", says: ["25 €"] }], null),
  es("holdout-04", "reference", ["El número de mi pedido es el 600123456 y no me ha llegado nada"], null, [
    "34600123456",
    "600123456",
  ]),
  es(
    "holdout-05",
    "demo",
    ["Hola, ¿podríais enseñarme una demo? Me llamo Sergio y mi móvil es 633 221 100"],
    lead("34633221100", "Sergio", DEMO),
  ),
  es(
    "holdout-06",
    "dates",
    ["¿Tenéis cita el 3 de diciembre por la tarde a las 5? Soy Eva, 644 332 211", "consulta"],
    lead("34644332211", "Eva", BOOK, at("2026-12-03", "17:00")),
  ),
  es(
    "holdout-07",
    "correction",
    ["llamadme al 611 000 111", "uy no, es el 611 000 112, perdón"],
    lead("34611000112", "", CALL),
  ),
  es("holdout-08", "hours-services", [{ say: "¿A qué hora cerráis hoy?", says: ["18:00"] }], null),
  de(
    "holdout-01",
    "callback",
    ["Können Sie mich bitte morgen zurückrufen? Meine Nummer: 0157 12345678, Gruß Andreas"],
    lead("4915712345678", "Andreas", CALL),
  ),
  de(
    "holdout-02",
    "booking",
    ["Ich hätte gern einen Beratungstermin am Dienstag", "14:30", "Claudia Vogel, 0170 1234567"],
    lead("491701234567", "Claudia Vogel", BOOK, at("2026-12-01", "14:30")),
  ),
  de("holdout-03", "faq", [{ say: "Wie viel kostet das im Monat?", says: ["25 €"] }], null),
  de("holdout-04", "reference", ["Zu meiner Rechnung Nr. 20260099 habe ich eine Frage"], null, ["20260099"]),
  de(
    "holdout-05",
    "demo",
    ["Wir würden gerne eine Produktdemo sehen. Ansprechpartner ist Herr Braun, Tel. 040 1234567"],
    lead("49401234567", "Herr Braun", DEMO),
  ),
  de("holdout-06", "closed-past", [{ say: "Geht Sonntag um 12?", says: ["geschlossen"] }], null),
  de(
    "holdout-07",
    "correction",
    ["Bitte rufen Sie mich nicht an, schreiben Sie mir lieber. Falls nötig: 0171 9998887"],
    lead("491719998887", "", INFO),
  ),
  de("holdout-08", "hours-services", [{ say: "Wann habt ihr geöffnet?", says: ["18:00"] }], null),
  fr(
    "holdout-01",
    "callback",
    ["Bonjour, pourriez-vous me rappeler demain matin ? C'est Isabelle, 06 45 67 89 01"],
    lead("33645678901", "Isabelle", CALL),
  ),
  fr(
    "holdout-02",
    "booking",
    ["Je voudrais un rendez-vous jeudi prochain", "consultation", "à 15h30", "Pierre Lefèvre, 06 78 90 12 34"],
    lead("33678901234", "Pierre Lefèvre", BOOK, at("2026-12-03", "15:30")),
  ),
  fr("holdout-03", "faq", [{ say: "Quel est le prix ?", says: ["25 €"] }], null),
  fr("holdout-04", "reference", ["Ma commande n° 4839201745 n'est jamais arrivée"], null, [
    "4839201745",
    "334839201745",
  ]),
  fr(
    "holdout-05",
    "demo",
    ["On aimerait une démo pour notre équipe, je suis Lucie, 07 12 34 56 78"],
    lead("33712345678", "Lucie", DEMO),
  ),
  fr(
    "holdout-06",
    "dates",
    ["rendez-vous le 7 décembre à 10h, c'est Marc, 06 11 11 22 22", "consultation"],
    lead("33611112222", "Marc", BOOK, at("2026-12-07", "10:00")),
  ),
  fr("holdout-07", "hours-services", [{ say: "Vous fermez à quelle heure ?", says: ["18:00|18 h"] }], null),
  fr(
    "holdout-08",
    "unknown",
    [{ say: "Vous recrutez en ce moment ?", says: ["qu'un membre de l'équipe vous rappelle"] }],
    null,
  ),
  pt(
    "holdout-01",
    "callback",
    ["Bom dia! Pode me ligar à tarde? Aqui é o Roberto, (21) 98888-1234"],
    lead("5521988881234", "Roberto", CALL),
  ),
  pt(
    "holdout-02",
    "booking",
    ["Quero marcar uma consulta na terça que vem", "às 11h", "Fernanda Costa, (11) 97654-3210"],
    lead("5511976543210", "Fernanda Costa", BOOK, at("2026-12-01", "11:00")),
  ),
  pt("holdout-03", "faq", [{ say: "Quanto é a mensalidade?", says: ["R$ 99"] }], null),
  pt("holdout-04", "reference", ["Meu número de pedido é 11987650000, não chegou ainda"], null, [
    "11987650000",
    "5511987650000",
  ]),
  pt(
    "holdout-05",
    "demo",
    ["Gostaria de agendar uma demonstração do sistema. Sou a Juliana, (19) 99876-5432"],
    lead("5519998765432", "Juliana", DEMO),
  ),
  pt("holdout-06", "closed-past", [{ say: "Dá pra ir domingo às 10h?", says: ["fechado"] }], null),
]
