import { at, type Conversation, conversation, lead } from "./types.ts"

const c = conversation("fr")
const CALL = "CALLBACK_REQUESTED"
const DEMO = "DEMO_REQUESTED"
const BOOK = "BOOKING"
const INFO = "GENERAL_INQUIRY"

/** French-speaking visitors of Atelier Lumière (French number plan, Europe/Paris). */
export const FR: ReadonlyArray<Conversation> = [
  // callback
  c(
    "callback-01",
    "callback",
    ["Bonjour, je m'appelle Claire. Pouvez-vous me rappeler au 06 12 34 56 78 ?"],
    lead("33612345678", "Claire", CALL),
  ),
  c("callback-02", "callback", ["rappelez-moi svp 07 11 22 33 44"], lead("33711223344", "", CALL)),
  c(
    "callback-03",
    "callback",
    ["Bonsoir, j'aimerais être rappelé pour un devis", "+33 6 98 76 54 32"],
    lead("33698765432", "", CALL),
  ),
  c(
    "callback-04",
    "callback",
    ["Moi c'est Julien Morel, vous pouvez m'appeler au 06.55.44.33.22"],
    lead("33655443322", "Julien Morel", CALL),
  ),
  c(
    "callback-05",
    "callback",
    ["Est-ce que quelqu'un peut me téléphoner demain ? 01 42 68 53 00"],
    lead("33142685300", "", CALL),
  ),
  // demo
  c(
    "demo-01",
    "demo",
    [
      { say: "Je voudrais une démo de votre logiciel de réservation", never: ["09:00", "10:30"] },
      "Je suis Camille, 06 11 22 33 44",
    ],
    lead("33611223344", "Camille", DEMO),
  ),
  c(
    "demo-02",
    "demo",
    ["Pourriez-vous nous faire une démonstration ? Ici Thomas Petit, 06 22 33 44 55"],
    lead("33622334455", "Thomas Petit", DEMO),
  ),
  c(
    "demo-03",
    "demo",
    ["une présentation du produit m'intéresse", "mon portable : 06 33 44 55 66"],
    lead("33633445566", "", DEMO),
  ),
  // booking
  c(
    "booking-01",
    "booking",
    ["Bonjour, je voudrais prendre rendez-vous vendredi", "consultation", "10h30", "Sophie Martin, 06 00 01 11 11"],
    lead("33600011111", "Sophie Martin", BOOK, at("2026-11-27", "10:30")),
  ),
  c(
    "booking-02",
    "booking",
    ["Vous avez un créneau demain pour une consultation ?", "à 16h", "Hugo, 06 00 01 11 12"],
    lead("33600011112", "Hugo", BOOK, at("2026-11-26", "16:00")),
  ),
  c(
    "booking-03",
    "booking",
    ["Je souhaite réserver une formation le 3 décembre à 11h", "je m'appelle Inès, 06 00 01 11 13"],
    lead("33600011113", "Inès", BOOK, at("2026-12-03", "11:00", "formation")),
  ),
  c(
    "booking-04",
    "booking",
    ["un rdv lundi à 12h c'est possible ?", "consultation", "Louis Bernard 06 00 01 11 14"],
    lead("33600011114", "Louis Bernard", BOOK, at("2026-11-30", "12:00")),
  ),
  c(
    "booking-05",
    "booking",
    ["Il me faudrait une consultation mardi prochain", "le premier créneau", "Léa, 06 00 01 11 15"],
    lead("33600011115", "Léa", BOOK, at("2026-12-01", "09:00")),
  ),
  // dates
  c(
    "dates-01",
    "dates",
    [
      { say: "Est-ce possible jeudi 4 à 10h ?", says: ["?"] },
      "jeudi 3 alors",
      "consultation",
      "Je suis Antoine, 06 00 01 11 16",
    ],
    lead("33600011116", "Antoine", BOOK, at("2026-12-03", "10:00")),
  ),
  c(
    "dates-02",
    "dates",
    ["rendez-vous après-demain à 11h svp", "consultation", "Manon 06 00 01 11 17"],
    lead("33600011117", "Manon", BOOK, at("2026-11-27", "11:00")),
  ),
  c(
    "dates-03",
    "dates",
    ["Dans deux jours à 14h30, c'est possible ? Je m'appelle Nathan, 06 00 01 11 18", "consultation"],
    lead("33600011118", "Nathan", BOOK, at("2026-11-27", "14:30")),
  ),
  c(
    "dates-04",
    "dates",
    ["le 2 décembre à midi, il reste de la place ? Chloé, 06 00 01 11 19", "consultation"],
    lead("33600011119", "Chloé", BOOK, at("2026-12-02", "12:00")),
  ),
  c(
    "dates-05",
    "dates",
    ["rdv le 04/12 à 13h30, Lucas 06 00 01 11 20", "consultation"],
    lead("33600011120", "Lucas", BOOK, at("2026-12-04", "13:30")),
  ),
  // closed, past
  c(
    "closed-01",
    "closed-past",
    [
      { say: "Je peux venir dimanche à 11h ?", says: ["fermé"], never: ["numéro de téléphone"] },
      "d'accord, lundi à 11h alors",
      "consultation",
      "Paul 06 00 01 11 21",
    ],
    lead("33600011121", "Paul", BOOK, at("2026-11-30", "11:00")),
  ),
  c(
    "closed-02",
    "closed-past",
    [
      { say: "rendez-vous aujourd'hui à 9h", says: ["passé"], never: ["numéro de téléphone"] },
      "alors aujourd'hui à 15h",
      "consultation",
      "Emma, 06 00 01 11 22",
    ],
    lead("33600011122", "Emma", BOOK, at("2026-11-25", "15:00")),
  ),
  c("closed-03", "closed-past", [{ say: "samedi à 17h ?", says: ["14:00"] }], null),
  // faq
  c("faq-01", "faq", [{ say: "Où est-ce que je peux me garer ?", says: ["Tanneurs"] }], null),
  c("faq-02", "faq", [{ say: "C'est quoi vos tarifs ?", says: ["25 €"] }], null),
  c("faq-03", "faq", [{ say: "On peut tester gratuitement ?", says: ["14 jours"] }], null),
  c("faq-04", "faq", [{ say: "Quelle est votre adresse ?", says: ["Lyon"] }], null),
  c("faq-05", "faq", [{ say: "Vous acceptez le prélèvement ?", says: ["prélèvement"] }], null),
  c("faq-06", "faq", [{ say: "ça marche avec ma boutique Shopify ?", says: ["PrestaShop"] }], null),
  c("faq-07", "faq", [{ say: "Il y a un engagement ?", says: ["Sans engagement"] }], null),
  c("faq-08", "faq", [{ say: "Où sont hébergées mes données ?", says: ["RGPD"] }], null),
  // hours, services, name
  c(
    "hours-01",
    "hours-services",
    [{ say: "Quels sont vos horaires d'ouverture ?", says: ["9:00|09:00|9 h", "18:00|18 h"] }],
    null,
  ),
  c("hours-02", "hours-services", [{ say: "Vous êtes ouverts le samedi ?", says: ["10:00|10 h", "14:00|14 h"] }], null),
  c(
    "hours-03",
    "hours-services",
    [{ say: "Quels services proposez-vous ?", says: ["consultation", "formation"] }],
    null,
  ),
  // unknown
  c(
    "unknown-01",
    "unknown",
    [{ say: "Vous vendez des imprimantes ?", says: ["qu'un membre de l'équipe vous rappelle"] }],
    null,
  ),
  c(
    "unknown-02",
    "unknown",
    [
      { say: "Vous réparez les ordinateurs portables ?", says: ["qu'un membre de l'équipe vous rappelle"] },
      "oui, rappelez-moi au 06 00 01 11 23",
    ],
    lead("33600011123", "", CALL),
  ),
  // reference numbers
  c("reference-01", "reference", ["Mon numéro de commande est 4839201745 et je n'ai rien reçu"], null, [
    "4839201745",
    "334839201745",
  ]),
  c(
    "reference-02",
    "reference",
    ["La facture n° 20261145 est fausse, rappelez-moi au 06 00 01 11 24"],
    lead("33600011124", "", CALL),
    ["20261145"],
  ),
  c("reference-03", "reference", ["numéro client 0612345678, merci de changer mon adresse"], null, [
    "33612345678",
    "0612345678",
  ]),
  c("reference-04", "reference", ["numéro d'adhérent 06 11 22 33 99, je n'arrive pas à me connecter"], null, [
    "33611223399",
    "0611223399",
  ]),
  c("reference-05", "reference", ["mon numéro de suivi 6A12345678901 n'avance pas"], null, ["12345678901"]),
  // phone formats
  c("phone-01", "phone-format", ["mon numéro : +33 (0)6 12 34 56 78"], lead("33612345678", "", INFO)),
  c("phone-02", "phone-format", ["appelez-moi au 0033 6 12 34 56 79"], lead("33612345679", "", CALL)),
  c("phone-03", "phone-format", ["tél 0612345680, merci de me rappeler"], lead("33612345680", "", CALL)),
  // names
  c("name-01", "name", ["bonjour c'est marie, rappelez-moi au 06 00 01 11 25"], lead("33600011125", "Marie", CALL)),
  c("name-02", "name", ["Je suis intéressé, mon numéro est le 06 00 01 11 26"], lead("33600011126", "", INFO)),
  // cancel, move
  c(
    "cancel-01",
    "cancel-move",
    [
      "Je suis Olivier, 06 00 01 11 27, rendez-vous vendredi à 10h",
      "consultation",
      { say: "finalement, annulez le rendez-vous s'il vous plaît", says: ["annulé"] },
    ],
    lead("33600011127", "Olivier", BOOK),
  ),
  c(
    "cancel-02",
    "cancel-move",
    ["Je suis Alice, 06 00 01 11 28, rdv lundi 9h30", "consultation", "On peut le décaler à mardi 14h ?"],
    lead("33600011128", "Alice", BOOK, at("2026-12-01", "14:00")),
  ),
  // corrections
  c(
    "correction-01",
    "correction",
    ["Rappelez-moi au 06 00 01 11 29", "pardon, je me suis trompé de numéro, c'est le 06 00 01 11 30"],
    lead("33600011130", "", CALL),
  ),
  c(
    "correction-02",
    "correction",
    ["Je suis Nadia, rappelez-moi au 06 00 01 11 31", "en fait ne m'appelez pas, je vous écris un mail"],
    lead("33600011131", "Nadia", INFO),
  ),
  // general
  c("general-01", "general", ["Bonjour", "je regarde seulement, merci"], null),
  c("general-02", "general", ["Nous sommes 12 personnes sur 3 sites, budget 1 250,00 €"], null),
]
