import { at, type Conversation, conversation, lead } from "./types.ts"

const c = conversation("de")
const CALL = "CALLBACK_REQUESTED"
const DEMO = "DEMO_REQUESTED"
const BOOK = "BOOKING"
const INFO = "GENERAL_INQUIRY"

/** German-speaking visitors of Nordlicht Software (German number plan, Europe/Berlin). */
export const DE: ReadonlyArray<Conversation> = [
  // callback
  c(
    "callback-01",
    "callback",
    ["Hallo, ich bin Jonas. Können Sie mich zurückrufen? 0171 2345678"],
    lead("491712345678", "Jonas", CALL),
  ),
  c("callback-02", "callback", ["Bitte rufen Sie mich an: +49 151 23456789"], lead("4915123456789", "", CALL)),
  c(
    "callback-03",
    "callback",
    ["Guten Tag, mein Name ist Petra Schulz, ich hätte gern einen Rückruf", "030 1234567"],
    lead("49301234567", "Petra Schulz", CALL),
  ),
  c("callback-04", "callback", ["kannst du mich mal anrufen? 0160 9876543"], lead("491609876543", "", CALL)),
  c(
    "callback-05",
    "callback",
    ["Rückruf bitte unter 0176-11223344, danke! Grüße, Timo"],
    lead("4917611223344", "Timo", CALL),
  ),
  // demo
  c(
    "demo-01",
    "demo",
    [
      { say: "Ich hätte gern eine Demo Ihrer Buchungssoftware", never: ["09:00", "10:30"] },
      "Ich heiße Lena, 0171 3334445",
    ],
    lead("491713334445", "Lena", DEMO),
  ),
  c(
    "demo-02",
    "demo",
    ["Können Sie uns das Produkt vorführen? Hier ist Markus Weber, 0172 5556667"],
    lead("491725556667", "Markus Weber", DEMO),
  ),
  c(
    "demo-03",
    "demo",
    ["wir interessieren uns für eine Produktdemo", "meine Handynummer ist 0152 7778889"],
    lead("491527778889", "", DEMO),
  ),
  // booking
  c(
    "booking-01",
    "booking",
    ["Ich möchte einen Termin am Freitag", "Beratung", "10:30 Uhr passt", "Anna Becker, 0171 0001111"],
    lead("491710001111", "Anna Becker", BOOK, at("2026-11-27", "10:30")),
  ),
  c(
    "booking-02",
    "booking",
    ["Habt ihr morgen einen Termin frei?", "Beratung", "um 16 Uhr", "Felix, 0171 0001112"],
    lead("491710001112", "Felix", BOOK, at("2026-11-26", "16:00")),
  ),
  c(
    "booking-03",
    "booking",
    ["Ich möchte eine Einführung am 3. Dezember um 11 Uhr buchen", "mein Name ist Sabine, 0171 0001113"],
    lead("491710001113", "Sabine", BOOK, at("2026-12-03", "11:00", "Einführung")),
  ),
  c(
    "booking-04",
    "booking",
    ["Termin am Montag um 12 Uhr möglich?", "Beratung", "Klaus Meyer 0171 0001114"],
    lead("491710001114", "Klaus Meyer", BOOK, at("2026-11-30", "12:00")),
  ),
  c(
    "booking-05",
    "booking",
    ["Ich bräuchte eine Beratung nächsten Dienstag", "den ersten Termin bitte", "Julia, 0171 0001115"],
    lead("491710001115", "Julia", BOOK, at("2026-12-01", "09:00")),
  ),
  // dates
  c(
    "dates-01",
    "dates",
    [
      { say: "Geht Donnerstag, der 4., um 10 Uhr?", says: ["?"] },
      "Donnerstag, den 3. bitte",
      "Beratung",
      "Ich bin Paul, 0171 0001116",
    ],
    lead("491710001116", "Paul", BOOK, at("2026-12-03", "10:00")),
  ),
  c(
    "dates-02",
    "dates",
    ["Termin übermorgen um 11 Uhr bitte", "Beratung", "Mia 0171 0001117"],
    lead("491710001117", "Mia", BOOK, at("2026-11-27", "11:00")),
  ),
  c(
    "dates-03",
    "dates",
    ["Geht es in zwei Tagen um halb drei? Ich heiße Tom, 0171 0001118", "Beratung"],
    lead("491710001118", "Tom", BOOK, at("2026-11-27", "14:30")),
  ),
  c(
    "dates-04",
    "dates",
    ["Ist am 2. Dezember mittags etwas frei? Jana, 0171 0001119", "Beratung"],
    lead("491710001119", "Jana", BOOK, at("2026-12-02", "12:00")),
  ),
  c(
    "dates-05",
    "dates",
    ["Termin am 04.12. um 13:30, Ben 0171 0001120", "Beratung"],
    lead("491710001120", "Ben", BOOK, at("2026-12-04", "13:30")),
  ),
  // closed, past
  c(
    "closed-01",
    "closed-past",
    [
      { say: "Kann ich am Sonntag um 11 kommen?", says: ["geschlossen"], never: ["Telefonnummer"] },
      "ok, dann Montag um 11",
      "Beratung",
      "Lukas 0171 0001121",
    ],
    lead("491710001121", "Lukas", BOOK, at("2026-11-30", "11:00")),
  ),
  c(
    "closed-02",
    "closed-past",
    [
      { say: "Termin heute um 9 Uhr", says: ["vorbei"], never: ["Telefonnummer"] },
      "dann heute um 15 Uhr",
      "Beratung",
      "Emma, 0171 0001122",
    ],
    lead("491710001122", "Emma", BOOK, at("2026-11-25", "15:00")),
  ),
  c("closed-03", "closed-past", [{ say: "Samstag um 17 Uhr?", says: ["14:00"] }], null),
  // faq
  c("faq-01", "faq", [{ say: "Wo kann ich parken?", says: ["Lindenstraße"] }], null),
  c("faq-02", "faq", [{ say: "Wie teuer ist das?", says: ["25 €"] }], null),
  c("faq-03", "faq", [{ say: "Kann man das kostenlos testen?", says: ["14 Tage"] }], null),
  c("faq-04", "faq", [{ say: "Wie ist eure Adresse?", says: ["Hamburg"] }], null),
  c("faq-05", "faq", [{ say: "Kann ich per Lastschrift zahlen?", says: ["Lastschrift"] }], null),
  c("faq-06", "faq", [{ say: "Gibt es eine Schnittstelle zu Shopify?", says: ["Shopware"] }], null),
  c("faq-07", "faq", [{ say: "Wie lange ist die Mindestlaufzeit?", says: ["Keine Mindestlaufzeit"] }], null),
  c("faq-08", "faq", [{ say: "Ist das DSGVO-konform?", says: ["DSGVO"] }], null),
  // hours, services, name
  c("hours-01", "hours-services", [{ say: "Wie sind Ihre Öffnungszeiten?", says: ["9:00|09:00", "18:00"] }], null),
  c("hours-02", "hours-services", [{ say: "Habt ihr samstags offen?", says: ["10:00", "14:00"] }], null),
  c(
    "hours-03",
    "hours-services",
    [{ say: "Welche Leistungen bieten Sie an?", says: ["Beratung", "Einführung"] }],
    null,
  ),
  // unknown
  c("unknown-01", "unknown", [{ say: "Verkauft ihr auch Drucker?", says: ["Sollen wir Sie zurückrufen"] }], null),
  c(
    "unknown-02",
    "unknown",
    [{ say: "Repariert ihr Laptops?", says: ["Sollen wir Sie zurückrufen"] }, "ja gerne, 0171 0001123"],
    lead("491710001123", "", CALL),
  ),
  // reference numbers
  c("reference-01", "reference", ["Meine Bestellnummer ist 4839201745, die Lieferung fehlt"], null, [
    "4839201745",
    "494839201745",
  ]),
  c(
    "reference-02",
    "reference",
    ["Rechnungsnummer 20261145 stimmt nicht, rufen Sie mich bitte an: 0171 0001124"],
    lead("491710001124", "", CALL),
    ["20261145"],
  ),
  c("reference-03", "reference", ["Meine Kundennummer lautet 01712345678, bitte Adresse ändern"], null, [
    "491712345678",
    "01712345678",
  ]),
  c("reference-04", "reference", ["Mitgliedsnummer 30123456 – ich komme nicht rein"], null, ["4930123456", "30123456"]),
  c("reference-05", "reference", ["Sendungsnummer 00340434161234567890 zeigt nichts an"], null, [
    "00340434161234567890",
  ]),
  // phone formats
  c("phone-01", "phone-format", ["meine Nummer: +49 (0)171 2345678"], lead("491712345678", "", INFO)),
  c("phone-02", "phone-format", ["rufen Sie mich an unter 0049 30 1234567"], lead("49301234567", "", CALL)),
  c("phone-03", "phone-format", ["Tel.: 089 / 12 34 56 78, bitte Rückruf"], lead("498912345678", "", CALL)),
  // names
  c(
    "name-01",
    "name",
    ["hallo, hier ist frau dr. müller, bitte um rückruf unter 0171 0001125"],
    lead("491710001125", "Frau Dr. Müller", CALL),
  ),
  c("name-02", "name", ["Ich bin interessiert, meine Nummer ist 0171 0001126"], lead("491710001126", "", INFO)),
  // cancel, move
  c(
    "cancel-01",
    "cancel-move",
    [
      "Ich bin Stefan, 0171 0001127, Termin am Freitag um 10 Uhr",
      "Beratung",
      { say: "bitte stornieren Sie den Termin wieder", says: ["storniert|abgesagt"] },
    ],
    lead("491710001127", "Stefan", BOOK),
  ),
  c(
    "cancel-02",
    "cancel-move",
    ["Ich bin Nina, 0171 0001128, Termin Montag 9:30", "Beratung", "Können wir den auf Dienstag 14 Uhr verschieben?"],
    lead("491710001128", "Nina", BOOK, at("2026-12-01", "14:00")),
  ),
  // corrections
  c(
    "correction-01",
    "correction",
    ["Rufen Sie mich an: 0171 0001129", "Entschuldigung, falsche Nummer, richtig ist 0171 0001130"],
    lead("491710001130", "", CALL),
  ),
  c(
    "correction-02",
    "correction",
    ["Ich bin Karin, bitte rufen Sie mich an unter 0171 0001131", "Bitte doch nicht anrufen, ich schreibe eine E-Mail"],
    lead("491710001131", "Karin", INFO),
  ),
  // general
  c("general-01", "general", ["Hallo", "ich schaue mich nur um, danke"], null),
  c("general-02", "general", ["Wir sind 12 Leute an 3 Standorten, Budget etwa 1.250,00 €"], null),
]
