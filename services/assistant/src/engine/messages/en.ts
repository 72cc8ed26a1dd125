import { type Catalog, sentenceStart } from "./catalog.ts"

const to = (name: string | undefined) => (name === undefined ? "" : `, ${name}`)

export const en: Catalog = {
  greeting: (business) =>
    `Hi, welcome${business === "" ? "" : ` to ${business}`}! I can answer your questions, arrange a callback or book an appointment. How can I help?`,
  menu: (business) =>
    `I can answer ${business === "" ? "your questions" : `questions about ${business}`}, arrange a callback or book an appointment. What would you like to do?`,
  helloBack: () =>
    "Hi there! Just tell me what you need — I can answer a question, book an appointment or have someone call you back.",
  niceToMeet: (name) => `Nice to meet you, ${name}! How can I help you today?`,
  nameNoted: (name, day, time) => `Thank you, ${name}! I've noted your name. See you on ${day} at ${time}.`,
  closing: (name) => `You're welcome${to(name)}! If there's anything else, just write here.`,
  closingBooked: (name, day, time) => `You're welcome${to(name)} — see you on ${day} at ${time}.`,
  allSet: (name, day, time) => `All set${to(name)} — see you on ${day} at ${time}.`,
  noted: (name) => `All right${to(name)}. If there's anything else, just write here.`,
  otherTime: () => "No problem. Which other day or time would suit you?",
  whichDay: () => "Which day would suit you?",
  whatElse: () => "Of course — what can I help you with?",

  askPhoneForCallback: (name) => `Sure${to(name)}. What's the best phone number to call you on?`,
  askPhoneForDemo: (name) => `I'd be happy to set up a demo${to(name)}. What's the best phone number to reach you on?`,
  callbackNoted: (name, phone) => `Thanks${to(name)}! We'll call you back at ${phone} as soon as we can.`,
  demoNoted: (name, phone) => `Thanks${to(name)}! We'll contact you at ${phone} to set up your demo.`,
  numberNoted: (name, phone) =>
    `Thanks${to(name)}, I've noted your number: ${phone}. Someone from the team will get back to you.`,
  numberNotedWhichTime: (name, phone, day) =>
    `Thanks${to(name)}, I've noted your number: ${phone}. Which time would you like on ${day}?`,
  nameNotedWhichTime: (name, day) => `Thanks, ${name}. Which time would you like on ${day}?`,
  phoneCorrected: (phone) => `Got it, I've changed your number to ${phone}.`,
  callWithdrawn: (name) => `No problem${to(name)}, we won't call you. Is there anything else I can help with?`,
  howToStopMessages: () => `To stop our marketing messages, reply with just the word STOP.`,
  notContacted: () => `Understood — we won't contact you unless you ask us to.`,

  offerTimes: (service, day, times) => `Free times for ${service} on ${day}: ${times}. Which time would you like?`,
  dayFull: (service, day) => `Sorry, ${day} is fully booked for ${service}. Would another day suit you?`,
  closedDay: (day, nextOpen) =>
    `Sorry, we're closed on ${day}.${nextOpen === undefined ? " Would another day suit you?" : ` The next day we're open is ${nextOpen}. Would that suit you?`}`,
  pastTime: (day, time, later) =>
    `Sorry, ${time} on ${day} has already passed.${later === undefined ? " Would another day suit you?" : ` Still free that day: ${later}.`}`,
  slotNotOffered: (day, time, times) =>
    `We don't have a slot at ${time} on ${day}. ${times === "" ? "Would another day suit you?" : `Free times that day: ${times}. Which would you like?`}`,
  outsideHours: (day, time, ranges, times) =>
    `We're closed at ${time} on ${day} (open ${ranges}). ${times === "" ? "Would another day suit you?" : `Free times that day: ${times}. Which would you like?`}`,
  slotTaken: (day, time, times) =>
    `Sorry, ${time} on ${day} is already taken. ${times === "" ? "There's nothing else free that day; would another day suit you?" : `Still free that day: ${times}. Which would you like?`}`,
  noOpenDay: (service) =>
    `Sorry, there are no free times for ${service} in the next two weeks. Shall someone from the team call you? Just leave your number.`,
  whichTime: (day) => `What time would you like on ${day}?`,
  whichDate: (first, second) => `Just to check: did you mean ${first} or ${second}?`,
  weekdayMismatch: (named, byWeekday, byDay) =>
    `Just to check: did you mean ${byWeekday} or ${byDay}? (The date you gave isn't a ${named}.)`,

  askName: (service, day, time) =>
    `${sentenceStart(service)} on ${day} at ${time} is free. May I have your name for the booking?`,
  proposeSlot: (service, day, time) =>
    `${sentenceStart(service)} is free on ${day} at ${time}. Shall I book that for you?`,
  askPhoneForBooking: (name) => `Thanks${to(name)}! What phone number should I put the booking under?`,
  booked: (name, service, day, time) => `You're booked${to(name)}: ${service} on ${day} at ${time}. See you then!`,
  cancelled: (service, day, time) =>
    `Done: your ${service} on ${day} at ${time} is cancelled. Would you like to book another time?`,
  notThatBooking: (named, service, day, time) =>
    `I can't find a booking on ${named}. The one I have for you is your ${service} on ${day} at ${time}; say "cancel it" and I'll cancel that one.`,
  nothingToCancel: () =>
    "I can't find a booking made in this conversation to cancel. Shall someone from the team call you about it?",
  yourBooking: (service, day, time) => `Yes, your ${service} is booked for ${day} at ${time}. See you then!`,
  noBookingHeld: () =>
    "I can't find a booking made in this conversation. Would you like to book one, or shall someone from the team call you?",
  noSuchDate: (written) => `There's no ${written}: that date doesn't exist. Which day did you mean?`,
  whichService: (list) => `Which service would you like: ${list}?`,
  checkNumber: (written) =>
    `I'm not sure ${written} is a number we can call. Could you check it, or write it with its country code (e.g. +44 …)?`,
  moved: (service, day, time) => `Done, I've moved your ${service} to ${day} at ${time}. See you then!`,

  hours: (week) => `Our opening hours: ${week}.`,
  hoursOn: (day, ranges) => `On ${day} we're open ${ranges}.`,
  closedOn: (day) => `We're closed on ${day}.`,
  openNow: (close, later, yes = true) =>
    `${yes ? "Yes, we're" : "We're"} open now, until ${close} today${later === undefined ? "" : `, and again ${later}`}.`,
  closedNowOpensToday: (time) => `We're closed right now; we open today at ${time}.`,
  closedNowOpensOn: (day, time) => `We're closed right now; we open again on ${day} at ${time}.`,
  closedForToday: (nextOpen) =>
    `Sorry, we're already closed for today.${nextOpen === undefined ? " Would another day suit you?" : ` The next day we're open is ${nextOpen}. Would that suit you?`}`,
  services: (list, offerBooking = true) => `We offer ${list}.${offerBooking ? " Would you like to book one?" : ""}`,
  about: (business, about) =>
    about === undefined ? `This is ${business}. How can I help?` : `This is ${business}. ${about}`,
  stepFailed: () =>
    "Sorry, something went wrong on our side and I couldn't finish that. Nothing was changed — could you try again in a moment?",
  cannotTell: (kind) =>
    kind === "price" ? "I can't give you the price here, though." : "I can't tell you exactly where here, though.",
  offerCallback: () => "Shall someone from the team call you back?",
  dontKnow: () => "I'm sorry, I don't know the answer to that. Shall someone from the team call you back?",
  weekRange: (first, last) => `${first} to ${last}`,
  closedDays: (days) => `closed on ${days}`,
}
