import type { Catalog } from "./catalog.ts"

const to = (name: string | undefined) => (name === undefined ? "" : `, ${name}`)

export const de: Catalog = {
  greeting: (business) =>
    `Hallo und willkommen${business === "" ? "" : ` bei ${business}`}! Ich beantworte Ihre Fragen, vereinbare einen Rückruf oder buche einen Termin. Wie kann ich helfen?`,
  menu: (business) =>
    `Ich kann ${business === "" ? "Ihre Fragen" : `Fragen zu ${business}`} beantworten, einen Rückruf vereinbaren oder einen Termin buchen. Was möchten Sie tun?`,
  helloBack: () =>
    "Hallo! Sagen Sie mir einfach, was Sie brauchen: Ich beantworte eine Frage, buche einen Termin oder vereinbare einen Rückruf.",
  niceToMeet: (name) => `Schön, Sie kennenzulernen, ${name}! Wie kann ich helfen?`,
  nameNoted: (name, day, time) => `Danke, ${name}! Ich habe Ihren Namen notiert. Bis ${day} um ${time}.`,
  closing: (name) => `Gern geschehen${to(name)}! Wenn noch etwas ist, schreiben Sie einfach hier.`,
  closingBooked: (name, day, time) => `Gern geschehen${to(name)} — bis ${day} um ${time}.`,
  allSet: (name, day, time) => `Alles erledigt${to(name)} — bis ${day} um ${time}.`,
  noted: (name) => `In Ordnung${to(name)}. Wenn noch etwas ist, schreiben Sie einfach hier.`,
  otherTime: () => "Kein Problem. Welcher andere Tag oder welche andere Uhrzeit passt Ihnen?",
  whichDay: () => "Welcher Tag passt Ihnen?",
  whatElse: () => "Gern — wobei kann ich Ihnen helfen?",

  askPhoneForCallback: (name) => `Gern${to(name)}. Unter welcher Telefonnummer erreichen wir Sie?`,
  askPhoneForDemo: (name) =>
    `Gern zeigen wir Ihnen eine Demo${to(name)}. Unter welcher Telefonnummer erreichen wir Sie?`,
  callbackNoted: (name, phone) => `Danke${to(name)}! Wir rufen Sie so bald wie möglich unter ${phone} zurück.`,
  demoNoted: (name, phone) => `Danke${to(name)}! Wir melden uns unter ${phone}, um die Demo zu vereinbaren.`,
  numberNoted: (name, phone) =>
    `Danke${to(name)}, ich habe Ihre Nummer notiert: ${phone}. Jemand aus dem Team meldet sich bei Ihnen.`,
  numberNotedWhichTime: (name, phone, day) =>
    `Danke${to(name)}, ich habe Ihre Nummer notiert: ${phone}. Welche Uhrzeit am ${day} passt Ihnen?`,
  nameNotedWhichTime: (name, day) => `Danke, ${name}. Welche Uhrzeit am ${day} passt Ihnen?`,
  phoneCorrected: (phone) => `Alles klar, ich habe Ihre Nummer auf ${phone} geändert.`,
  callWithdrawn: (name) => `Kein Problem${to(name)}, wir rufen Sie nicht an. Kann ich sonst noch helfen?`,
  howToStopMessages: () =>
    `Um keine Werbenachrichten mehr von uns zu bekommen, antworten Sie nur mit dem Wort ABMELDEN (oder STOP).`,
  notContacted: () => `Verstanden — wir melden uns nur, wenn Sie uns darum bitten.`,

  offerTimes: (service, day, times) => `Freie Zeiten für ${service} am ${day}: ${times}. Welche Uhrzeit passt Ihnen?`,
  dayFull: (service, day) => `Leider ist der ${day} für ${service} ausgebucht. Passt Ihnen ein anderer Tag?`,
  closedDay: (day, nextOpen) =>
    `Leider haben wir am ${day} geschlossen.${nextOpen === undefined ? " Passt Ihnen ein anderer Tag?" : ` Der nächste geöffnete Tag ist ${nextOpen}. Passt Ihnen das?`}`,
  pastTime: (day, time, later) =>
    `Leider ist ${time} am ${day} schon vorbei.${later === undefined ? " Passt Ihnen ein anderer Tag?" : ` An dem Tag noch frei: ${later}.`}`,
  slotNotOffered: (day, time, times) =>
    `Um ${time} gibt es am ${day} keinen Termin. ${times === "" ? "Passt Ihnen ein anderer Tag?" : `Freie Zeiten an dem Tag: ${times}. Welche möchten Sie?`}`,
  outsideHours: (day, time, ranges, times) =>
    `Um ${time} haben wir am ${day} geschlossen (geöffnet ${ranges}). ${times === "" ? "Passt Ihnen ein anderer Tag?" : `Freie Zeiten an dem Tag: ${times}. Welche möchten Sie?`}`,
  slotTaken: (day, time, times) =>
    `Leider ist ${time} am ${day} schon vergeben. ${times === "" ? "An dem Tag ist nichts mehr frei; passt ein anderer Tag?" : `Noch frei: ${times}. Welche möchten Sie?`}`,
  noOpenDay: (service) =>
    `Leider gibt es in den nächsten zwei Wochen keine freien Zeiten für ${service}. Sollen wir Sie zurückrufen? Hinterlassen Sie einfach Ihre Nummer.`,
  whichTime: (day) => `Um wie viel Uhr am ${day}?`,
  whichDate: (first, second) => `Nur zur Sicherheit: Meinen Sie ${first} oder ${second}?`,
  weekdayMismatch: (named, byWeekday, byDay) =>
    `Nur zur Sicherheit: Meinen Sie ${byWeekday} oder ${byDay}? (Das Datum ist kein ${named}.)`,

  askName: (service, day, time) =>
    `Am ${day} um ${time} ist ein Termin für ${service} frei. Auf welchen Namen darf ich buchen?`,
  proposeSlot: (service, day, time) =>
    `Am ${day} um ${time} ist ein Termin für ${service} frei. Soll ich das für Sie buchen?`,
  askPhoneForBooking: (name) => `Danke${to(name)}! Unter welcher Telefonnummer darf ich den Termin eintragen?`,
  booked: (name, service, day, time) => `Gebucht${to(name)}: ${service} am ${day} um ${time}. Bis dann!`,
  cancelled: (service, day, time) =>
    `Erledigt: Ihr Termin (${service}) am ${day} um ${time} ist storniert. Möchten Sie einen anderen Termin?`,
  notThatBooking: (named, service, day, time) =>
    `Ich finde keine Buchung am ${named}. Ich habe Ihren Termin (${service}) am ${day} um ${time}; schreiben Sie „stornieren", und ich storniere diesen.`,
  nothingToCancel: () =>
    "Ich finde in diesem Gespräch keine Buchung, die ich stornieren könnte. Sollen wir Sie dazu zurückrufen?",
  yourBooking: (service, day, time) => `Ja, Ihr Termin (${service}) ist am ${day} um ${time} gebucht. Bis dann!`,
  noBookingHeld: () =>
    "Ich finde keine Buchung aus diesem Gespräch. Möchten Sie einen Termin buchen, oder soll Sie jemand aus dem Team anrufen?",
  noSuchDate: (written) => `Den ${written} gibt es nicht. Welchen Tag meinten Sie?`,
  whichService: (list) => `Welche Leistung möchten Sie: ${list}?`,
  checkNumber: (written) =>
    `Ich bin nicht sicher, ob wir ${written} anrufen können. Könnten Sie die Nummer prüfen oder mit Ländervorwahl schreiben (z. B. +49 …)?`,
  moved: (service, day, time) => `Erledigt, Ihr Termin (${service}) ist jetzt am ${day} um ${time}. Bis dann!`,

  hours: (week) => `Unsere Öffnungszeiten: ${week}.`,
  hoursOn: (day, ranges) => `Am ${day} haben wir von ${ranges} geöffnet.`,
  closedOn: (day) => `Am ${day} haben wir geschlossen.`,
  openNow: (close, later, yes = true) =>
    `${yes ? "Ja, wir haben" : "Wir haben"} jetzt geöffnet, heute bis ${close}${later === undefined ? "" : ` und wieder von ${later}`}.`,
  closedNowOpensToday: (time) => `Im Moment haben wir geschlossen; heute öffnen wir um ${time}.`,
  closedNowOpensOn: (day, time) => `Im Moment haben wir geschlossen; wir öffnen wieder am ${day} um ${time}.`,
  closedForToday: (nextOpen) =>
    `Leider haben wir heute schon geschlossen.${nextOpen === undefined ? " Passt Ihnen ein anderer Tag?" : ` Der nächste geöffnete Tag ist ${nextOpen}. Passt Ihnen das?`}`,
  services: (list, offerBooking = true) =>
    `Wir bieten ${list} an.${offerBooking ? " Möchten Sie einen Termin buchen?" : ""}`,
  about: (business, about) =>
    about === undefined ? `Hier ist ${business}. Wie kann ich helfen?` : `Hier ist ${business}. ${about}`,
  stepFailed: () =>
    "Entschuldigung, bei uns ist etwas schiefgegangen und ich konnte das nicht abschließen. Es wurde nichts geändert – versuchen Sie es bitte gleich noch einmal.",
  cannotTell: (kind) =>
    kind === "price"
      ? "Den Preis kann ich Ihnen hier leider nicht nennen."
      : "Wo genau, kann ich Ihnen hier leider nicht sagen.",
  offerCallback: () => "Soll Sie jemand aus dem Team zurückrufen?",
  dontKnow: () => "Das kann ich leider nicht beantworten. Sollen wir Sie zurückrufen?",
  weekRange: (first, last) => `${first} bis ${last}`,
  closedDays: (days) => `${days} geschlossen`,
}
