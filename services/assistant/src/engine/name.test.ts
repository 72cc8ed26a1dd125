import { describe, expect, it } from "vitest"
import { extractName } from "./name.ts"

describe("extractName", () => {
  it.each([
    ["I'm Dana", "Dana"],
    ["Hi, I’m Dana and I want a demo", "Dana"],
    ["my name is Dana", "Dana"],
    ["My name is dana scully", "Dana Scully"],
    ["hi im sarah", "Sarah"],
    ["hi im sarah, interested in a demo", "Sarah"],
    ["this is dr. patel, please call me at 415 555 0167", "Dr. Patel"],
    ["hello, my name's anna maria, number 415 555 0171", "Anna Maria"],
    ["(212) 555-0147, ask for Marcus", "Marcus"],
    ["Call me tomorrow morning if possible, 917-555-0162. Thanks, Raj", "Raj"],
    ["Hola, soy Lucía. ¿Me podéis llamar?", "Lucía"],
    ["hola soy carmen, llamadme al 612 000 125", "Carmen"],
    ["me llamo Javier Ruiz, ¿podéis devolverme la llamada?", "Javier Ruiz"],
    ["Hallo, ich bin Jonas. Können Sie mich zurückrufen?", "Jonas"],
    ["Ich heiße Lena, 0171 3334445", "Lena"],
    ["hallo, hier ist frau dr. müller, bitte um rückruf", "Frau Dr. Müller"],
    ["Rückruf bitte unter 0176-11223344, danke! Grüße, Timo", "Timo"],
    ["Bonjour, je m'appelle Claire. Pouvez-vous me rappeler ?", "Claire"],
    ["Moi c'est Julien Morel, vous pouvez m'appeler", "Julien Morel"],
    ["bonjour c'est marie, rappelez-moi", "Marie"],
    ["Olá, meu nome é João. Podem me ligar?", "João"],
    ["Aqui é a Fernanda Lima, pode me retornar a ligação?", "Fernanda Lima"],
    ["Sou o Pedro, (11) 90000-1116", "Pedro"],
    ["my name is Dana Scully, call me", "Dana Scully"],
    ["My name's Priya", "Priya"],
    ["this is Dana from Acme", "Dana"],
    ["Hello, this is José García", "José García"],
    ["I am Zoë", "Zoë"],
    ["Dana here, can you call me?", "Dana"],
    ["Kim Ode here, 0400 555 111", "Kim Ode"],
    ["hi, Ana Lima here", "Ana Lima"],
    ["name: Omar", "Omar"],
    ["you can call me Sam", "Sam"],
    ["I'm Mary-Jane Watson", "Mary-Jane Watson"],
  ])("takes the name from %j as %s", (text, name) => {
    expect(extractName(text)).toBe(name)
  })

  it.each([
    "I'm interested in your product",
    "I'm looking for a plumber",
    "I'm Interested in pricing",
    "I'm not sure",
    "this is urgent",
    "This is Monday's order",
    "Soy nuevo por aquí",
    "Ich bin interessiert",
    "Je suis intéressé, mon numéro est le 06 00 01 11 26",
    "Sou novo por aqui",
    "un rdv lundi à 12h c'est possible ?",
    "oui 9h30 c'est parfait",
    "d'accord, c'est bon pour moi",
    "Anyone here?",
    "I'm in London, call me on +44 (0) 7700 900 456",
    "i am available tomorrow",
    "call me back",
    "call me tomorrow at 10",
    "call me ASAP",
    "It's great",
    "I'm from Berlin",
    "how much does it cost?",
  ])("takes no name from %j", (text) => {
    expect(extractName(text)).toBeUndefined()
  })
})

describe("extractName beside a phone number or as an answer", () => {
  it.each([
    ["Ken Adams, 415-555-0143", "415-555-0143", "Ken Adams"],
    ["sure, Jenna 415 555 0146", "415 555 0146", "Jenna"],
    ["great, book it. Mia 415 555 0154", "415 555 0154", "Mia"],
    ["reserva para el 4/12 a las 13:30, Álvaro 612 000 120", "612 000 120", "Álvaro"],
  ])("reads the name written next to the number in %j", (text, phone, name) => {
    const at = text.indexOf(phone)
    expect(extractName(text, undefined, { phoneSpan: { start: at, end: at + phone.length } })).toBe(name)
  })

  it("takes a bare reply as the name once the name was asked for, and not otherwise", () => {
    expect(extractName("Hannah Brooks", undefined, { expectingName: true })).toBe("Hannah Brooks")
    expect(extractName("hannah brooks", undefined, { expectingName: true })).toBe("Hannah Brooks")
    expect(extractName("Hannah Brooks")).toBeUndefined()
    expect(extractName("10:30 works", undefined, { expectingName: true })).toBeUndefined()
  })

  it.each(["ja gerne, 0171 0001123", "yes please call me, 415 555 0161", "Rappelez-moi au 06 00 01 11 29"])(
    "takes no name from the words before the number in %j",
    (text) => {
      const match = /[+(]?\d[\d ()-]{6,}/.exec(text)
      const start = match?.index ?? 0
      expect(
        extractName(text, undefined, { phoneSpan: { start, end: start + (match?.[0].length ?? 0) } }),
      ).toBeUndefined()
    },
  )
})
