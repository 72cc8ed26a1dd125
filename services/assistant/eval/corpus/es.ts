import { at, type Conversation, conversation, lead } from "./types.ts"

const c = conversation("es")
const CALL = "CALLBACK_REQUESTED"
const DEMO = "DEMO_REQUESTED"
const BOOK = "BOOKING"
const INFO = "GENERAL_INQUIRY"

/** Spanish-speaking visitors of Soluciones Brío (Spanish number plan, Europe/Madrid). */
export const ES: ReadonlyArray<Conversation> = [
  // callback
  c(
    "callback-01",
    "callback",
    ["Hola, soy Lucía. ¿Me podéis llamar? Mi número es 612 345 678"],
    lead("34612345678", "Lucía", CALL),
  ),
  c("callback-02", "callback", ["llamadme por favor al 600 111 222"], lead("34600111222", "", CALL)),
  c(
    "callback-03",
    "callback",
    ["Buenas tardes, quisiera que me llamaran para hablar de precios", "+34 655 44 33 22"],
    lead("34655443322", "", CALL),
  ),
  c(
    "callback-04",
    "callback",
    ["me llamo Javier Ruiz, ¿podéis devolverme la llamada? 622 334 455"],
    lead("34622334455", "Javier Ruiz", CALL),
  ),
  c(
    "callback-05",
    "callback",
    ["¿Alguien me puede llamar mañana por la mañana? Tel. 699 88 77 66"],
    lead("34699887766", "", CALL),
  ),
  // demo
  c(
    "demo-01",
    "demo",
    [{ say: "Quiero una demo de vuestro sistema de reservas", never: ["9:00", "10:30"] }, "Soy Marta, 611 222 333"],
    lead("34611222333", "Marta", DEMO),
  ),
  c(
    "demo-02",
    "demo",
    ["¿Podéis hacernos una demostración del programa? Me llamo Pablo, 633 444 555"],
    lead("34633444555", "Pablo", DEMO),
  ),
  c("demo-03", "demo", ["me interesa ver una demo", "mi móvil es 644 555 666"], lead("34644555666", "", DEMO)),
  // booking
  c(
    "booking-01",
    "booking",
    ["Hola, quiero pedir una cita para el viernes", "consulta", "a las 10:30", "Soy Ana García, 612 000 111"],
    lead("34612000111", "Ana García", BOOK, at("2026-11-27", "10:30")),
  ),
  c(
    "booking-02",
    "booking",
    ["¿Tenéis hueco mañana para una consulta?", "a las 16:00", "Carlos, 612 000 112"],
    lead("34612000112", "Carlos", BOOK, at("2026-11-26", "16:00")),
  ),
  c(
    "booking-03",
    "booking",
    ["Quiero reservar una formación el 3 de diciembre a las 11", "me llamo Elena, 612 000 113"],
    lead("34612000113", "Elena", BOOK, at("2026-12-03", "11:00", "formación")),
  ),
  c(
    "booking-04",
    "booking",
    ["¿me dais cita el lunes a las 12?", "consulta", "Diego Martín 612 000 114"],
    lead("34612000114", "Diego Martín", BOOK, at("2026-11-30", "12:00")),
  ),
  c(
    "booking-05",
    "booking",
    ["necesito una cita el próximo martes", "consulta", "la primera", "Sofía, 612 000 115"],
    lead("34612000115", "Sofía", BOOK, at("2026-12-01", "09:00")),
  ),
  // dates
  c(
    "dates-01",
    "dates",
    [
      { say: "¿Puede ser el jueves 4 a las 10?", says: ["?"] },
      "el jueves 3 entonces",
      "consulta",
      "Soy Raúl, 612 000 116",
    ],
    lead("34612000116", "Raúl", BOOK, at("2026-12-03", "10:00")),
  ),
  c(
    "dates-02",
    "dates",
    ["quiero una cita pasado mañana a las 11", "consulta", "Irene 612 000 117"],
    lead("34612000117", "Irene", BOOK, at("2026-11-27", "11:00")),
  ),
  c(
    "dates-03",
    "dates",
    ["cita dentro de dos días a las cuatro y media de la tarde, soy Hugo, 612 000 118", "consulta"],
    lead("34612000118", "Hugo", BOOK, at("2026-11-27", "16:30")),
  ),
  c(
    "dates-04",
    "dates",
    ["¿el 2 de diciembre a mediodía está libre? Soy Nuria, 612 000 119", "consulta"],
    lead("34612000119", "Nuria", BOOK, at("2026-12-02", "12:00")),
  ),
  c(
    "dates-05",
    "dates",
    ["reserva para el 4/12 a las 13:30, Álvaro 612 000 120", "consulta"],
    lead("34612000120", "Álvaro", BOOK, at("2026-12-04", "13:30")),
  ),
  // closed, past
  c(
    "closed-01",
    "closed-past",
    [
      { say: "¿Puedo ir el domingo a las 11?", says: ["cerrado"], never: ["teléfono"] },
      "vale, el lunes a las 11",
      "consulta",
      "Marcos 612 000 121",
    ],
    lead("34612000121", "Marcos", BOOK, at("2026-11-30", "11:00")),
  ),
  c(
    "closed-02",
    "closed-past",
    [
      { say: "cita hoy a las 9", says: ["ya ha pasado|ya pasó|pasado"], never: ["teléfono"] },
      "pues hoy a las 15",
      "consulta",
      "Laura, 612 000 122",
    ],
    lead("34612000122", "Laura", BOOK, at("2026-11-25", "15:00")),
  ),
  c("closed-03", "closed-past", [{ say: "¿el sábado a las 17?", says: ["14:00"] }], null),
  // faq
  c("faq-01", "faq", [{ say: "¿Dónde puedo aparcar?", says: ["Almendro"] }], null),
  c("faq-02", "faq", [{ say: "¿qué precio tiene?", says: ["25 €"] }], null),
  c("faq-03", "faq", [{ say: "¿se puede probar gratis?", says: ["14 días"] }], null),
  c("faq-04", "faq", [{ say: "¿cuál es vuestra dirección?", says: ["calle Mayor"] }], null),
  c("faq-05", "faq", [{ say: "¿aceptáis Bizum?", says: ["Bizum"] }], null),
  c("faq-06", "faq", [{ say: "¿se integra con mi tienda de Shopify?", says: ["WooCommerce"] }], null),
  c("faq-07", "faq", [{ say: "¿hay permanencia?", says: ["Sin permanencia"] }], null),
  c("faq-08", "faq", [{ say: "¿Es seguro? ¿Dónde se guardan los datos?", says: ["RGPD"] }], null),
  // hours, services, name
  c("hours-01", "hours-services", [{ say: "¿Cuál es vuestro horario?", says: ["9:00", "18:00"] }], null),
  c("hours-02", "hours-services", [{ say: "¿abrís los sábados?", says: ["10:00", "14:00"] }], null),
  c("hours-03", "hours-services", [{ say: "¿Qué servicios ofrecéis?", says: ["consulta", "formación"] }], null),
  // unknown
  c("unknown-01", "unknown", [{ say: "¿Vendéis impresoras?", says: ["alguien del equipo te llame"] }], null),
  c(
    "unknown-02",
    "unknown",
    [{ say: "¿Me arregláis el portátil?", says: ["alguien del equipo te llame"] }, "sí, llamadme al 612 000 123"],
    lead("34612000123", "", CALL),
  ),
  // reference numbers
  c("reference-01", "reference", ["Mi número de pedido es 4839201745 y no ha llegado"], null, [
    "4839201745",
    "344839201745",
  ]),
  c(
    "reference-02",
    "reference",
    ["La factura 20261145 está mal, llamadme al 612 000 124"],
    lead("34612000124", "", CALL),
    ["20261145"],
  ),
  c("reference-03", "reference", ["nº de socio 612345678, no puedo entrar"], null, ["34612345678", "612345678"]),
  c("reference-04", "reference", ["Mi DNI es 12345678Z y el localizador de la reserva es 7734521"], null, [
    "12345678",
    "7734521",
  ]),
  c("reference-05", "reference", ["número de cliente 655443322, quiero cambiar la dirección"], null, [
    "34655443322",
    "655443322",
  ]),
  // phone formats
  c("phone-01", "phone-format", ["mi teléfono: +34 612 34 56 78"], lead("34612345678", "", INFO)),
  c("phone-02", "phone-format", ["llamadme al 0034 699 123 456"], lead("34699123456", "", CALL)),
  c("phone-03", "phone-format", ["mi fijo es el 91 123 45 67, llamadme por la tarde"], lead("34911234567", "", CALL)),
  // names
  c("name-01", "name", ["hola soy carmen, llamadme al 612 000 125"], lead("34612000125", "Carmen", CALL)),
  c("name-02", "name", ["Soy nuevo por aquí, mi número es 612 000 126"], lead("34612000126", "", INFO)),
  // cancel, move
  c(
    "cancel-01",
    "cancel-move",
    [
      "Soy Pedro, 612 000 127, quiero cita el viernes a las 10",
      "consulta",
      { say: "perdona, cancela la cita", says: ["cancel"] },
    ],
    lead("34612000127", "Pedro", BOOK),
  ),
  c(
    "cancel-02",
    "cancel-move",
    ["Soy Rocío, 612 000 128, cita el lunes a las 9:30", "consulta", "¿la podemos cambiar al martes a las 14?"],
    lead("34612000128", "Rocío", BOOK, at("2026-12-01", "14:00")),
  ),
  // corrections
  c(
    "correction-01",
    "correction",
    ["llamadme al 612 000 129", "perdón, me equivoqué, es el 612 000 130"],
    lead("34612000130", "", CALL),
  ),
  c(
    "correction-02",
    "correction",
    ["Soy Teresa, llamadme al 612 000 131", "mejor no me llaméis, os escribo un correo"],
    lead("34612000131", "Teresa", INFO),
  ),
  // general
  c("general-01", "general", ["hola", "solo estaba mirando, gracias"], null),
  c("general-02", "general", ["Somos 12 personas en 3 tiendas, presupuesto de 1.250,00 €"], null),
]
