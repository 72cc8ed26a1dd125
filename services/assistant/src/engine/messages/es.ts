import type { Catalog } from "./catalog.ts"

const to = (name: string | undefined) => (name === undefined ? "" : `, ${name}`)

export const es: Catalog = {
  greeting: (business) =>
    `¡Hola, bienvenido${business === "" ? "" : ` a ${business}`}! Puedo responder tus preguntas, pedir que te llamemos o reservarte una cita. ¿En qué te ayudo?`,
  menu: (business) =>
    `Puedo responder ${business === "" ? "tus preguntas" : `preguntas sobre ${business}`}, pedir que te llamemos o reservarte una cita. ¿Qué necesitas?`,
  helloBack: () =>
    "¡Hola! Cuéntame qué necesitas: puedo responder una pregunta, reservarte una cita o pedir que te llamemos.",
  niceToMeet: (name) => `¡Encantado, ${name}! ¿En qué te puedo ayudar?`,
  nameNoted: (name, day, time) => `¡Gracias, ${name}! He anotado tu nombre. Te esperamos el ${day} a las ${time}.`,
  closing: (name) => `¡De nada${to(name)}! Si necesitas algo más, escríbeme aquí.`,
  closingBooked: (name, day, time) => `¡De nada${to(name)}! Te esperamos el ${day} a las ${time}.`,
  allSet: (name, day, time) => `¡Todo listo${to(name)}! Te esperamos el ${day} a las ${time}.`,
  noted: (name) => `De acuerdo${to(name)}. Si necesitas algo más, escríbeme aquí.`,
  otherTime: () => "Sin problema. ¿Qué otro día u hora te viene bien?",
  whichDay: () => "¿Qué día te viene bien?",
  whatElse: () => "Claro, ¿en qué te puedo ayudar?",

  askPhoneForCallback: (name) => `Claro${to(name)}. ¿A qué número de teléfono te llamamos?`,
  askPhoneForDemo: (name) =>
    `Con mucho gusto te preparamos una demo${to(name)}. ¿En qué número de teléfono te localizamos?`,
  callbackNoted: (name, phone) => `¡Gracias${to(name)}! Te llamaremos al ${phone} lo antes posible.`,
  demoNoted: (name, phone) => `¡Gracias${to(name)}! Te contactaremos en el ${phone} para organizar la demo.`,
  numberNoted: (name, phone) =>
    `Gracias${to(name)}, he apuntado tu número: ${phone}. Alguien del equipo se pondrá en contacto contigo.`,
  numberNotedWhichTime: (name, phone, day) =>
    `Gracias${to(name)}, he apuntado tu número: ${phone}. ¿A qué hora te viene bien el ${day}?`,
  nameNotedWhichTime: (name, day) => `Gracias, ${name}. ¿A qué hora te viene bien el ${day}?`,
  phoneCorrected: (phone) => `Entendido, he cambiado tu número al ${phone}.`,
  callWithdrawn: (name) => `Sin problema${to(name)}, no te llamaremos. ¿Te ayudo con algo más?`,
  howToStopMessages: () =>
    `Para dejar de recibir nuestros mensajes promocionales, responde solo con la palabra BAJA (o STOP).`,
  notContacted: () => `Entendido: no te contactaremos a menos que nos lo pidas.`,

  offerTimes: (service, day, times) => `Horas libres para ${service} el ${day}: ${times}. ¿Cuál prefieres?`,
  dayFull: (service, day) => `Lo siento, el ${day} está completo para ${service}. ¿Te va bien otro día?`,
  closedDay: (day, nextOpen) =>
    `Lo siento, el ${day} está cerrado.${nextOpen === undefined ? " ¿Te va bien otro día?" : ` El próximo día que abrimos es el ${nextOpen}. ¿Te viene bien?`}`,
  pastTime: (day, time, later) =>
    `Lo siento, las ${time} del ${day} ya han pasado.${later === undefined ? " ¿Te va bien otro día?" : ` Aún quedan libres ese día: ${later}.`}`,
  slotNotOffered: (day, time, times) =>
    `No tenemos hora a las ${time} el ${day}. ${times === "" ? "¿Te va bien otro día?" : `Horas libres ese día: ${times}. ¿Cuál prefieres?`}`,
  outsideHours: (day, time, ranges, times) =>
    `A las ${time} del ${day} estamos cerrados (abrimos ${ranges}). ${times === "" ? "¿Te va bien otro día?" : `Horas libres ese día: ${times}. ¿Cuál prefieres?`}`,
  slotTaken: (day, time, times) =>
    `Lo siento, las ${time} del ${day} ya están ocupadas. ${times === "" ? "No queda nada libre ese día; ¿te va bien otro?" : `Aún quedan libres: ${times}. ¿Cuál prefieres?`}`,
  noOpenDay: (service) =>
    `Lo siento, no hay horas libres para ${service} en las próximas dos semanas. ¿Quieres que alguien del equipo te llame? Déjanos tu número.`,
  whichTime: (day) => `¿A qué hora te viene bien el ${day}?`,
  whichDate: (first, second) => `Para asegurarme: ¿te refieres al ${first} o al ${second}?`,
  weekdayMismatch: (named, byWeekday, byDay) =>
    `Para asegurarme: ¿te refieres al ${byWeekday} o al ${byDay}? (La fecha que indicas no cae en ${named}.)`,

  askName: (service, day, time) =>
    `El ${day} a las ${time} está libre para ${service}. ¿A nombre de quién hago la reserva?`,
  proposeSlot: (service, day, time) => `Tenemos ${service} libre el ${day} a las ${time}. ¿Te lo reservo?`,
  askPhoneForBooking: (name) => `¡Gracias${to(name)}! ¿Qué número de teléfono pongo en la reserva?`,
  booked: (name, service, day, time) =>
    `¡Reservado${to(name)}! Te esperamos el ${day} a las ${time} para ${service}. ¡Hasta entonces!`,
  cancelled: (service, day, time) =>
    `Hecho: he cancelado tu ${service} del ${day} a las ${time}. ¿Quieres reservar otra hora?`,
  notThatBooking: (named, service, day, time) =>
    `No encuentro ninguna reserva el ${named}. La que tengo es tu ${service} del ${day} a las ${time}; si quieres cancelarla, dime "cancélala".`,
  nothingToCancel: () =>
    "No encuentro ninguna reserva hecha en esta conversación que cancelar. ¿Quieres que alguien del equipo te llame?",
  yourBooking: (service, day, time) => `Sí, tu ${service} está reservado para el ${day} a las ${time}. ¡Te esperamos!`,
  noBookingHeld: () =>
    "No encuentro ninguna reserva hecha en esta conversación. ¿Quieres reservar una, o prefieres que te llame alguien del equipo?",
  noSuchDate: (written) => `No existe el ${written}: esa fecha no existe. ¿Qué día querías decir?`,
  whichService: (list) => `¿Qué servicio quieres: ${list}?`,
  checkNumber: (written) =>
    `No estoy seguro de que ${written} sea un número al que podamos llamar. ¿Puedes revisarlo o escribirlo con el prefijo del país (p. ej. +34 …)?`,
  moved: (service, day, time) => `Hecho, he cambiado tu ${service} al ${day} a las ${time}. ¡Hasta entonces!`,

  hours: (week) => `Nuestro horario: ${week}.`,
  hoursOn: (day, ranges) => `El ${day} abrimos de ${ranges}.`,
  closedOn: (day) => `El ${day} está cerrado.`,
  openNow: (close, later, yes = true) =>
    `${yes ? "Sí, ahora estamos" : "Ahora estamos"} abiertos, hoy hasta las ${close}${later === undefined ? "" : ` y de nuevo de ${later}`}.`,
  closedNowOpensToday: (time) => `Ahora mismo estamos cerrados; hoy abrimos a las ${time}.`,
  closedNowOpensOn: (day, time) => `Ahora mismo estamos cerrados; volvemos a abrir el ${day} a las ${time}.`,
  closedForToday: (nextOpen) =>
    `Lo siento, hoy ya hemos cerrado.${nextOpen === undefined ? " ¿Te va bien otro día?" : ` El próximo día que abrimos es el ${nextOpen}. ¿Te viene bien?`}`,
  services: (list, offerBooking = true) => `Ofrecemos ${list}.${offerBooking ? " ¿Quieres reservar?" : ""}`,
  about: (business, about) =>
    about === undefined ? `Somos ${business}. ¿En qué te ayudo?` : `Somos ${business}. ${about}`,
  stepFailed: () =>
    "Lo siento, algo ha fallado por nuestra parte y no he podido terminarlo. No se ha cambiado nada: ¿puedes intentarlo de nuevo en un momento?",
  cannotTell: (kind) =>
    kind === "price"
      ? "Pero el precio no te lo puedo decir por aquí."
      : "Pero no te puedo decir por aquí dónde exactamente.",
  offerCallback: () => "¿Quieres que alguien del equipo te llame?",
  dontKnow: () => "Lo siento, no sé la respuesta. ¿Quieres que alguien del equipo te llame?",
  weekRange: (first, last) => `de ${first} a ${last}`,
  closedDays: (days) => `cerrado el ${days}`,
}
