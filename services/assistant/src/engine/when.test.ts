import { describe, expect, it } from "vitest"
import type { Language } from "./text.ts"
import { readWhen } from "./when.ts"

// Wednesday 25 November 2026, as in the evaluation corpus.
const TODAY = "2026-11-25"

describe("readWhen", () => {
  it.each([
    ["I'd like to book an appointment on Friday", "en", "", "2026-11-27", undefined],
    ["do you have appointments tomorrow?", "en", "", "2026-11-26", undefined],
    ["2pm please", "en", "", undefined, "14:00"],
    ["Book me an onboarding session on 3 Dec at 11am", "en", "", "2026-12-03", "11:00"],
    ["can i get a consultation next tuesday?", "en", "", "2026-12-01", undefined],
    ["I need to schedule a meeting with you guys on Monday at 3pm", "en", "", "2026-11-30", "15:00"],
    ["hi! any free slots on Thursday afternoon?", "en", "", "2026-11-26", undefined],
    ["4:30 pm", "en", "", undefined, "16:30"],
    ["I want to reserve a consultation for December 2nd at noon", "en", "", "2026-12-02", "12:00"],
    ["Can I book a consultation for Thursday the 4th at 10?", "en", "conflict", "2026-12-04", "10:00"],
    ["Thursday please, the 3rd", "en", "", "2026-12-03", undefined],
    ["book me in two days at half past two", "en", "", "2026-11-27", "14:30"],
    ["Could I come in on the 1st at nine thirty?", "en", "", "2026-12-01", "09:30"],
    ["appointment Thursday the 3rd at 9:30 am please", "en", "", "2026-12-03", "09:30"],
    ["is the day after tomorrow at 11 free?", "en", "", "2026-11-27", "11:00"],
    ["I'd like an appointment on Monday Dec 1 at 10am", "en", "conflict", "2026-12-01", "10:00"],
    ["book a consultation on 12/4 at 1:30pm", "en", "", "2026-12-04", "13:30"],
    ["Can I book for Sunday at 11?", "en", "", "2026-11-29", "11:00"],
    ["book me today at 9am", "en", "", "2026-11-25", "09:00"],
    ["then 3pm today", "en", "", "2026-11-25", "15:00"],
    ["can I come in on Saturday at 4pm?", "en", "", "2026-11-28", "16:00"],
    ["Appointment on Sunday the 29th please", "en", "", "2026-11-29", undefined],
    ["10:30 works", "en", "", undefined, "10:30"],
    ["book a consultation Friday at 10am, I'm Kate", "en", "", "2026-11-27", "10:00"],
    ["can we move it to Tuesday at 2pm instead?", "en", "", "2026-12-01", "14:00"],
    ["sorry, could we push it to 3pm?", "en", "", undefined, "15:00"],
    ["Tara. I'd like an appointment tomorrow at 11", "en", "", "2026-11-26", "11:00"],
    ["the first one", "en", "", undefined, undefined, true],
    ["Hola, quiero pedir una cita para el viernes", "es", "", "2026-11-27", undefined],
    ["a las 10:30", "es", "", undefined, "10:30"],
    ["a las 16:00", "es", "", undefined, "16:00"],
    ["Quiero reservar una formación el 3 de diciembre a las 11", "es", "", "2026-12-03", "11:00"],
    ["¿me dais cita el lunes a las 12?", "es", "", "2026-11-30", "12:00"],
    ["necesito una cita el próximo martes", "es", "", "2026-12-01", undefined],
    ["¿Puede ser el jueves 4 a las 10?", "es", "conflict", "2026-12-04", "10:00"],
    ["el jueves 3 entonces", "es", "", "2026-12-03", undefined],
    ["quiero una cita pasado mañana a las 11", "es", "", "2026-11-27", "11:00"],
    ["cita dentro de dos días a las cuatro y media de la tarde", "es", "", "2026-11-27", "16:30"],
    ["¿el 2 de diciembre a mediodía está libre?", "es", "", "2026-12-02", "12:00"],
    ["reserva para el 4/12 a las 13:30", "es", "", "2026-12-04", "13:30"],
    ["¿Puedo ir el domingo a las 11?", "es", "", "2026-11-29", "11:00"],
    ["cita hoy a las 9", "es", "", "2026-11-25", "09:00"],
    ["pues hoy a las 15", "es", "", "2026-11-25", "15:00"],
    ["¿el sábado a las 17?", "es", "", "2026-11-28", "17:00"],
    ["¿la podemos cambiar al martes a las 14?", "es", "", "2026-12-01", "14:00"],
    ["la primera", "es", "", undefined, undefined, true],
    ["Ich möchte einen Termin am Freitag", "de", "", "2026-11-27", undefined],
    ["10:30 Uhr passt", "de", "", undefined, "10:30"],
    ["um 16 Uhr", "de", "", undefined, "16:00"],
    ["Ich möchte eine Einführung am 3. Dezember um 11 Uhr buchen", "de", "", "2026-12-03", "11:00"],
    ["Termin am Montag um 12 Uhr möglich?", "de", "", "2026-11-30", "12:00"],
    ["Ich bräuchte eine Beratung nächsten Dienstag", "de", "", "2026-12-01", undefined],
    ["Geht Donnerstag, der 4., um 10 Uhr?", "de", "conflict", "2026-12-04", "10:00"],
    ["Donnerstag, den 3. bitte", "de", "", "2026-12-03", undefined],
    ["Termin übermorgen um 11 Uhr bitte", "de", "", "2026-11-27", "11:00"],
    ["Geht es in zwei Tagen um halb drei?", "de", "", "2026-11-27", "14:30"],
    ["Ist am 2. Dezember mittags etwas frei?", "de", "", "2026-12-02", "12:00"],
    ["Termin am 04.12. um 13:30", "de", "", "2026-12-04", "13:30"],
    ["Kann ich am Sonntag um 11 kommen?", "de", "", "2026-11-29", "11:00"],
    ["Termin heute um 9 Uhr", "de", "", "2026-11-25", "09:00"],
    ["Samstag um 17 Uhr?", "de", "", "2026-11-28", "17:00"],
    ["Können wir den auf Dienstag 14 Uhr verschieben?", "de", "", "2026-12-01", "14:00"],
    ["den ersten Termin bitte", "de", "", undefined, undefined, true],
    ["Bonjour, je voudrais prendre rendez-vous vendredi", "fr", "", "2026-11-27", undefined],
    ["10h30", "fr", "", undefined, "10:30"],
    ["à 16h", "fr", "", undefined, "16:00"],
    ["Je souhaite réserver une formation le 3 décembre à 11h", "fr", "", "2026-12-03", "11:00"],
    ["un rdv lundi à 12h c'est possible ?", "fr", "", "2026-11-30", "12:00"],
    ["Il me faudrait une consultation mardi prochain", "fr", "", "2026-12-01", undefined],
    ["Est-ce possible jeudi 4 à 10h ?", "fr", "conflict", "2026-12-04", "10:00"],
    ["jeudi 3 alors", "fr", "", "2026-12-03", undefined],
    ["rendez-vous après-demain à 11h svp", "fr", "", "2026-11-27", "11:00"],
    ["Dans deux jours à 14h30, c'est possible ?", "fr", "", "2026-11-27", "14:30"],
    ["le 2 décembre à midi, il reste de la place ?", "fr", "", "2026-12-02", "12:00"],
    ["rdv le 04/12 à 13h30", "fr", "", "2026-12-04", "13:30"],
    ["Je peux venir dimanche à 11h ?", "fr", "", "2026-11-29", "11:00"],
    ["rendez-vous aujourd'hui à 9h", "fr", "", "2026-11-25", "09:00"],
    ["On peut le décaler à mardi 14h ?", "fr", "", "2026-12-01", "14:00"],
    ["le premier créneau", "fr", "", undefined, undefined, true],
    ["Oi, queria marcar um horário na sexta", "pt", "", "2026-11-27", undefined],
    ["às 16h", "pt", "", undefined, "16:00"],
    ["Quero agendar um treinamento no dia 3 de dezembro às 11h", "pt", "", "2026-12-03", "11:00"],
    ["dá pra marcar na segunda às 12h?", "pt", "", "2026-11-30", "12:00"],
    ["preciso de uma consulta na próxima terça", "pt", "", "2026-12-01", undefined],
    ["Pode ser quinta-feira dia 4 às 10h?", "pt", "conflict", "2026-12-04", "10:00"],
    ["quinta, dia 3 então", "pt", "", "2026-12-03", undefined],
    ["quero marcar depois de amanhã às 11h", "pt", "", "2026-11-27", "11:00"],
    ["Daqui a dois dias às 14h30 dá?", "pt", "", "2026-11-27", "14:30"],
    ["dia 2 de dezembro ao meio-dia tem vaga?", "pt", "", "2026-12-02", "12:00"],
    ["agendar para 04/12 às 13h30", "pt", "", "2026-12-04", "13:30"],
    ["Posso ir no domingo às 11h?", "pt", "", "2026-11-29", "11:00"],
    ["horário hoje às 9h", "pt", "", "2026-11-25", "09:00"],
    ["Dá pra remarcar para terça às 14h?", "pt", "", "2026-12-01", "14:00"],
    ["o primeiro horário", "pt", "", undefined, undefined, true],
    ["pode cancelar o horário, por favor", "pt", "", undefined, undefined],
    ["Somos 12 personas en 3 tiendas", "es", "", undefined, undefined],
  ] as Array<[string, Language, string, string | undefined, string | undefined, boolean?]>)(
    "reads %j (%s)",
    (text, language, conflict, date, time, earliest) => {
      const when = readWhen(text, language, TODAY)
      expect({ date: when.date, time: when.time, conflict: when.conflict !== undefined }).toEqual({
        date,
        time,
        conflict: conflict === "conflict",
      })
      if (earliest !== undefined) expect(when.earliest).toBe(earliest)
    },
  )

  it("keeps both dates of a weekday and a date that disagree, the weekday's the nearest to the date", () => {
    expect(readWhen("Thursday the 4th at 10", "en", TODAY).conflict).toEqual({
      byWeekday: "2026-12-03",
      byDay: "2026-12-04",
    })
  })

  it("ignores the spans it is told to (a phone number is no time)", () => {
    const text = "call me at 415 555 0163"
    expect(readWhen(text, "en", TODAY, [{ start: 11, end: text.length }]).time).toBeUndefined()
  })
})

describe("a part of the day and a week", () => {
  it.each([
    ["could I come tomorrow in the afternoon?", "en", "2026-11-26", "afternoon"],
    ["good morning, anything on Friday?", "en", "2026-11-27", undefined],
    ["¿mañana por la tarde tenéis algo?", "es", "2026-11-26", "afternoon"],
    ["mañana por la mañana", "es", "2026-11-26", "morning"],
    ["buenas tardes, ¿el viernes?", "es", "2026-11-27", undefined],
    ["Geht es morgen am Nachmittag?", "de", "2026-11-26", "afternoon"],
    ["guten Abend, am Freitag?", "de", "2026-11-27", undefined],
    ["demain après-midi, c'est possible ?", "fr", "2026-11-26", "afternoon"],
    ["vendredi matin", "fr", "2026-11-27", "morning"],
    ["amanhã à tarde tem vaga?", "pt", "2026-11-26", "afternoon"],
    ["boa tarde, sexta?", "pt", "2026-11-27", undefined],
  ] as Array<[string, Language, string, string | undefined]>)(
    "%j (%s): the day, no hour, and the part of it",
    (text, language, date, part) => {
      const when = readWhen(text, language, TODAY)
      expect({ date: when.date, time: when.time, partOfDay: when.partOfDay }).toEqual({
        date,
        time: undefined,
        partOfDay: part,
      })
    },
  )

  it("keeps the hour the part of the day moves: 3 in the afternoon is 15:00", () => {
    expect(readWhen("demain à 3 heures de l'après-midi", "fr", TODAY).time).toBe("15:00")
    expect(readWhen("mañana a las 5 de la tarde", "es", TODAY).time).toBe("17:00")
  })

  it.each([
    ["next week", "en", undefined],
    ["tuesday next week at 10", "en", "2026-12-01"],
    ["la semana que viene, el martes", "es", "2026-12-01"],
    ["nächste Woche Donnerstag um 15 Uhr", "de", "2026-12-03"],
    ["mardi de la semaine prochaine", "fr", "2026-12-01"],
    ["na quinta da semana que vem", "pt", "2026-12-03"],
  ] as Array<[string, Language, string | undefined]>)(
    "%j (%s): the week from Monday 30 November",
    (text, language, date) => {
      const when = readWhen(text, language, TODAY)
      expect({ week: when.week, date: when.date }).toEqual({ week: "2026-11-30", date })
    },
  )

  it("on a Sunday, next week starts tomorrow", () => {
    expect(readWhen("next week", "en", "2026-11-29").week).toBe("2026-11-30")
  })
})

describe("moments relative to now", () => {
  it.each([
    ["can I come in half an hour?", "en", "10:30"],
    ["¿puedo ir en media hora?", "es", "10:30"],
    ["geht es in einer Stunde?", "de", "11:00"],
    ["je peux passer dans 20 minutes ?", "fr", "10:20"],
    ["posso ir daqui a meia hora?", "pt", "10:30"],
  ] as const)("%j (%s) at 10:00 is today at %s", (text, language, time) => {
    expect(readWhen(text, language, TODAY, [], "10:00")).toMatchObject({ date: TODAY, time })
  })

  it("is tomorrow's past midnight", () => {
    expect(readWhen("in an hour", "en", TODAY, [], "23:30")).toMatchObject({ date: "2026-11-26", time: "00:30" })
  })

  it.each([
    ["what if I cancel at the last minute?", "en"],
    ["I called yesterday, nobody answered", "en"],
  ] as const)("%j (%s) names no time to book", (text, language) => {
    const when = readWhen(text, language, TODAY, [], "10:00")
    expect([when.date, when.time]).toEqual([undefined, undefined])
  })
})

describe("a number right after a weekday", () => {
  it.each([
    ["can I come monday 10am?", "en", "10:00"],
    ["quiero una cita el lunes 10am", "es", "10:00"],
    ["el lunes 10 hrs", "es", "10:00"],
    ["el lunes 10.30 si se puede", "es", "10:30"],
    ["el lunes 10 de la mañana", "es", "10:00"],
    ["Montag 10 Uhr", "de", "10:00"],
    ["lundi 10h pour une vidange", "fr", "10:00"],
    ["segunda 10h", "pt", "10:00"],
    ["segunda 10 e meia", "pt", "10:30"],
  ] as Array<[string, Language, string]>)("%j (%s) is the coming Monday at %s", (text, language, time) => {
    const when = readWhen(text, language, TODAY)
    expect({ date: when.date, time: when.time, conflict: when.conflict }).toEqual({
      date: "2026-11-30",
      time,
      conflict: undefined,
    })
  })

  it("asks between the coming weekday and a date weeks away that a bare number names", () => {
    // Sunday 12 December 2027: Monday the 10th is in January.
    expect(readWhen("el lunes 10", "es", "2027-12-12").conflict).toEqual({
      byWeekday: "2027-12-13",
      byDay: "2028-01-10",
    })
    expect(readWhen("Montag 10. um 9", "de", "2027-12-12").conflict).toBeUndefined()
  })

  it("asks about the coming weekday, not one weeks away, when the bare number's date is another day", () => {
    expect(readWhen("el jueves 10", "es", "2027-12-12").conflict).toEqual({
      byWeekday: "2027-12-16",
      byDay: "2028-01-10",
    })
  })

  it("reads a bare number that falls on the weekday within three weeks as its day", () => {
    const when = readWhen("friday 24 at 10", "en", "2027-12-07")
    expect({ date: when.date, time: when.time, conflict: when.conflict }).toEqual({
      date: "2027-12-24",
      time: "10:00",
      conflict: undefined,
    })
  })
})

describe("times as people type them", () => {
  it.each([
    ["could I come at half 2?", "en", "14:30"],
    ["half ten on friday", "en", "10:30"],
    ["half past two", "en", "14:30"],
    ["um halb drei", "de", "14:30"],
    ["queria marcar as 11", "pt", "11:00"],
    ["sexta as 3 da tarde", "pt", "15:00"],
    ["amanha pelas 10", "pt", "10:00"],
    ["ás 9h", "pt", "09:00"],
  ] as Array<[string, Language, string]>)("%j (%s) is %s", (text, language, time) => {
    expect(readWhen(text, language, TODAY).time).toBe(time)
  })

  it("leaves an article before a word alone: 'as unhas' is no time", () => {
    expect(readWhen("quero fazer as unhas", "pt", TODAY).time).toBeUndefined()
  })
})

describe("am and pm only as written", () => {
  it.each([
    ["¿puedo pasar mañana a las 5 a recogerlo?", "es", "17:00"],
    ["dá pra ir às 3 a tarde?", "pt", "15:00"],
    ["at 5 a.m. if possible", "en", "05:00"],
    ["at 5 pm", "en", "17:00"],
    ["às 6 da manhã", "pt", "06:00"],
  ] as const)("reads %j (%s) at %s", (text, language, time) => {
    expect(readWhen(text, language, "2026-11-25", [], "10:00").time).toBe(time)
  })
})
