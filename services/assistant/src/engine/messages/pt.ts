import { type Catalog, sentenceStart } from "./catalog.ts"

const to = (name: string | undefined) => (name === undefined ? "" : `, ${name}`)
/** "na segunda-feira", "no sábado". */
const on = (day: string): string => (/^(?:sábado|domingo)/u.test(day) ? `no ${day}` : `na ${day}`)

export const pt: Catalog = {
  greeting: (business) =>
    `Olá, bem-vindo${business === "" ? "" : ` à ${business}`}! Posso responder suas perguntas, pedir que liguemos para você ou agendar um horário. Como posso ajudar?`,
  menu: (business) =>
    `Posso responder ${business === "" ? "suas perguntas" : `perguntas sobre a ${business}`}, pedir que liguemos para você ou agendar um horário. O que você precisa?`,
  helloBack: () =>
    "Olá! Me diga do que você precisa: posso responder uma pergunta, agendar um horário ou pedir que liguemos para você.",
  niceToMeet: (name) => `Prazer, ${name}! Como posso ajudar?`,
  nameNoted: (name, day, time) => `Obrigado, ${name}! Anotei seu nome. Até ${day} às ${time}.`,
  closing: (name) => `Por nada${to(name)}! Se precisar de mais alguma coisa, é só escrever aqui.`,
  closingBooked: (name, day, time) => `Por nada${to(name)}! Até ${day} às ${time}.`,
  allSet: (name, day, time) => `Tudo certo${to(name)}! Até ${day} às ${time}.`,
  noted: (name) => `Tudo bem${to(name)}. Se precisar de mais alguma coisa, é só escrever aqui.`,
  otherTime: () => "Sem problema. Que outro dia ou horário fica bom para você?",
  whichDay: () => "Que dia fica bom para você?",
  whatElse: () => "Claro — em que posso ajudar?",

  askPhoneForCallback: (name) => `Claro${to(name)}. Em qual número de telefone podemos ligar para você?`,
  askPhoneForDemo: (name) =>
    `Vamos marcar uma demonstração com prazer${to(name)}. Em qual número de telefone falamos com você?`,
  callbackNoted: (name, phone) => `Obrigado${to(name)}! Vamos ligar para você no ${phone} o quanto antes.`,
  demoNoted: (name, phone) => `Obrigado${to(name)}! Vamos entrar em contato no ${phone} para marcar a demonstração.`,
  numberNoted: (name, phone) =>
    `Obrigado${to(name)}, anotei seu número: ${phone}. Alguém da equipe vai entrar em contato.`,
  numberNotedWhichTime: (name, phone, day) =>
    `Obrigado${to(name)}, anotei seu número: ${phone}. Que horário prefere ${on(day)}?`,
  nameNotedWhichTime: (name, day) => `Obrigado, ${name}. Que horário prefere ${on(day)}?`,
  phoneCorrected: (phone) => `Entendido, troquei seu número para ${phone}.`,
  callWithdrawn: (name) => `Sem problema${to(name)}, não vamos ligar. Posso ajudar com mais alguma coisa?`,
  howToStopMessages: () =>
    `Para não receber mais mensagens promocionais nossas, responda só com a palavra PARAR (ou STOP).`,
  notContacted: () => `Entendido: não vamos entrar em contato, a não ser que você peça.`,

  offerTimes: (service, day, times) => `Horários livres para ${service} ${on(day)}: ${times}. Qual você prefere?`,
  dayFull: (service, day) => `Desculpe, ${day} está lotado para ${service}. Outro dia serve para você?`,
  closedDay: (day, nextOpen) =>
    `Desculpe, estamos fechados ${on(day)}.${nextOpen === undefined ? " Outro dia serve para você?" : ` O próximo dia aberto é ${nextOpen}. Pode ser?`}`,
  pastTime: (day, time, later) =>
    `Desculpe, ${time} de ${day} já passou.${later === undefined ? " Outro dia serve para você?" : ` Ainda livres nesse dia: ${later}.`}`,
  slotNotOffered: (day, time, times) =>
    `Não temos horário às ${time} de ${day}. ${times === "" ? "Outro dia serve para você?" : `Horários livres nesse dia: ${times}. Qual você prefere?`}`,
  outsideHours: (day, time, ranges, times) =>
    `Às ${time} estamos fechados ${on(day)} (abrimos ${ranges}). ${times === "" ? "Outro dia serve para você?" : `Horários livres nesse dia: ${times}. Qual você prefere?`}`,
  slotTaken: (day, time, times) =>
    `Desculpe, ${time} de ${day} já está ocupado. ${times === "" ? "Não há mais nada livre nesse dia; outro dia serve?" : `Ainda livres: ${times}. Qual você prefere?`}`,
  noOpenDay: (service) =>
    `Desculpe, não há horários livres para ${service} nas próximas duas semanas. Quer que alguém da equipe ligue para você? É só deixar seu número.`,
  whichTime: (day) => `Que horas ${on(day)}?`,
  whichDate: (first, second) => `Só para confirmar: você quer dizer ${first} ou ${second}?`,
  weekdayMismatch: (named, byWeekday, byDay) =>
    `Só para confirmar: você quer dizer ${byWeekday} ou ${byDay}? (A data informada não cai numa ${named}.)`,

  askName: (service, day, time) =>
    `${sentenceStart(on(day))} às ${time} está livre para ${service}. Em nome de quem faço o agendamento?`,
  proposeSlot: (service, day, time) => `Temos ${service} livre ${on(day)} às ${time}. Posso reservar para você?`,
  askPhoneForBooking: (name) => `Obrigado${to(name)}! Qual número de telefone coloco no agendamento?`,
  booked: (name, service, day, time) => `Agendado${to(name)}: ${service} ${on(day)} às ${time}. Até lá!`,
  cancelled: (service, day, time) =>
    `Pronto: seu horário de ${service} ${on(day)} às ${time} foi cancelado. Quer agendar outro horário?`,
  notThatBooking: (named, service, day, time) =>
    `Não encontro nenhum agendamento ${on(named)}. O que tenho é o seu horário de ${service} ${on(day)} às ${time}; diga "cancele" e eu cancelo esse.`,
  nothingToCancel: () =>
    "Não encontro nenhum agendamento feito nesta conversa para cancelar. Quer que alguém da equipe ligue para você?",
  yourBooking: (service, day, time) => `Sim, o seu ${service} está marcado para ${day} às ${time}. Até lá!`,
  noBookingHeld: () =>
    "Não encontro nenhuma reserva feita nesta conversa. Quer marcar uma, ou prefere que alguém da equipe ligue para você?",
  noSuchDate: (written) => `Não existe ${written}: essa data não existe. Que dia você quis dizer?`,
  whichService: (list) => `Qual serviço você quer: ${list}?`,
  checkNumber: (written) =>
    `Não tenho certeza de que ${written} seja um número para o qual possamos ligar. Pode conferir ou escrevê-lo com o código do país (ex.: +351 …)?`,
  moved: (service, day, time) => `Pronto, remarquei sua ${service} para ${day} às ${time}. Até lá!`,

  hours: (week) => `Nosso horário de funcionamento: ${week}.`,
  hoursOn: (day, ranges) => `${sentenceStart(on(day))} abrimos das ${ranges}.`,
  closedOn: (day) => `Estamos fechados ${on(day)}.`,
  openNow: (close, later, yes = true) =>
    `${yes ? "Sim, estamos" : "Estamos"} abertos agora, hoje até as ${close}${later === undefined ? "" : ` e de novo das ${later}`}.`,
  closedNowOpensToday: (time) => `No momento estamos fechados; hoje abrimos às ${time}.`,
  closedNowOpensOn: (day, time) => `No momento estamos fechados; voltamos a abrir ${on(day)} às ${time}.`,
  closedForToday: (nextOpen) =>
    `Desculpe, hoje já fechamos.${nextOpen === undefined ? " Outro dia seria bom para você?" : ` O próximo dia em que abrimos é ${nextOpen}. Pode ser?`}`,
  services: (list, offerBooking = true) => `Oferecemos ${list}.${offerBooking ? " Quer agendar?" : ""}`,
  about: (business, about) =>
    about === undefined ? `Aqui é a ${business}. Como posso ajudar?` : `Aqui é a ${business}. ${about}`,
  stepFailed: () =>
    "Desculpe, algo deu errado do nosso lado e não consegui concluir. Nada foi alterado — pode tentar de novo em instantes?",
  cannotTell: (kind) =>
    kind === "price"
      ? "Mas o preço eu não consigo informar por aqui."
      : "Mas não consigo informar por aqui onde exatamente.",
  offerCallback: () => "Quer que alguém da equipe ligue para você?",
  dontKnow: () => "Desculpe, não sei responder isso. Quer que alguém da equipe ligue para você?",
  weekRange: (first, last) => `de ${first} a ${last}`,
  closedDays: (days) => `fechado no ${days}`,
}
