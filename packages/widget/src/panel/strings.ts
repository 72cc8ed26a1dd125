/**
 * The panel's words in each language of the widget (those of the assistant, docs/contract.md §8). Text
 * from Parley or the visitor is never among them: those are shown as text, never parsed as HTML.
 */
import type { Language } from "../shared/language.ts"

export interface PanelStrings {
  readonly defaultTitle: string
  readonly close: string
  readonly chat: string
  readonly book: string
  readonly conversation: string
  readonly empty: string
  readonly loadingHistory: string
  readonly you: string
  readonly assistant: string
  /** Above a person's reply (docs/contract.md §17): not the assistant. */
  readonly staff: string
  /** Said once when a person of the business holds the conversation and the assistant stays quiet. */
  readonly held: string
  readonly typing: string
  readonly sending: string
  readonly notSent: string
  readonly message: string
  readonly placeholder: string
  readonly send: string
  /** Shown when the draft reaches the 2,000 characters a message may have (the rest was not kept). */
  readonly tooLong: string
  readonly retry: string
  readonly retryIn: (seconds: number) => string
  readonly tooMany: string
  readonly unavailable: string
  readonly offline: string
  readonly forbidden: string
  readonly failed: string
  readonly bookTitle: string
  readonly service: string
  readonly date: string
  readonly time: string
  readonly name: string
  readonly phone: string
  readonly loadingSlots: string
  readonly noSlots: string
  readonly pickTime: string
  readonly submitBooking: string
  readonly booking: string
  readonly slotTaken: string
  readonly pastDate: string
  readonly bookingUnavailable: string
  readonly phoneInvalid: string
  readonly nameInvalid: string
  readonly checkDetails: string
  /** Messages kept from before (a reload) that Parley has not received yet. */
  readonly unsent: string
  readonly booked: string
  readonly bookedAt: (service: string, date: string, time: string, timezone: string) => string
  readonly bookedFor: (name: string, phone: string) => string
  readonly bookAnother: string
  readonly backToChat: string
}

const en: PanelStrings = {
  defaultTitle: "Chat with us",
  close: "Close",
  chat: "Chat",
  book: "Book a time",
  conversation: "Conversation",
  empty: "Ask us anything: we usually answer right away.",
  loadingHistory: "Loading the conversation…",
  you: "You",
  assistant: "Assistant",
  staff: "A person from the team",
  held: "A person from the team will reply here.",
  typing: "Assistant is typing…",
  sending: "Sending",
  notSent: "Not sent",
  message: "Message",
  placeholder: "Write a message…",
  send: "Send",
  tooLong: "A message has 2,000 characters at most: the rest was left out.",
  retry: "Retry",
  retryIn: (s) => `You can retry in ${s} s.`,
  tooMany: "Too many messages at once.",
  unavailable: "The chat is busy right now.",
  offline: "You seem to be offline, or we cannot be reached. What you wrote is kept.",
  forbidden: "This chat is not available on this website.",
  failed: "Something went wrong.",
  bookTitle: "Book a time",
  service: "Service",
  date: "Date",
  time: "Time",
  name: "Name",
  phone: "Phone",
  loadingSlots: "Loading free times…",
  noSlots: "No free times on this day. Please choose another date.",
  pickTime: "Please choose a time.",
  submitBooking: "Book",
  booking: "Booking…",
  slotTaken: "Sorry, that time was just taken. Please choose another one.",
  pastDate: "Please choose a date from today on.",
  bookingUnavailable: "Booking is not available here.",
  phoneInvalid: "Please check the phone number: write it with its area code, like (415) 555-0100 or +44 7700 900456.",
  nameInvalid: "Please write your name.",
  checkDetails: "Please check the details above and try again.",
  unsent: "Some of your messages haven't been sent yet.",
  booked: "You are booked",
  bookedAt: (service, date, time, zone) => `${service}, ${date} at ${time} (${zone})`,
  bookedFor: (name, phone) => `For ${name}, ${phone}`,
  bookAnother: "Book another time",
  backToChat: "Back to chat",
}

const es: PanelStrings = {
  defaultTitle: "Chatea con nosotros",
  close: "Cerrar",
  chat: "Chat",
  book: "Reservar",
  conversation: "Conversación",
  empty: "Pregúntanos lo que quieras: solemos responder enseguida.",
  loadingHistory: "Cargando la conversación…",
  you: "Tú",
  assistant: "Asistente",
  staff: "Una persona del equipo",
  held: "Una persona del equipo te responderá aquí.",
  typing: "El asistente está escribiendo…",
  sending: "Enviando",
  notSent: "No enviado",
  message: "Mensaje",
  placeholder: "Escribe un mensaje…",
  send: "Enviar",
  tooLong: "Un mensaje tiene 2000 caracteres como máximo: el resto no se ha incluido.",
  retry: "Reintentar",
  retryIn: (s) => `Puedes reintentar en ${s} s.`,
  tooMany: "Demasiados mensajes a la vez.",
  unavailable: "El chat está ocupado ahora mismo.",
  offline: "Parece que no hay conexión o no podemos responder. Lo que escribiste se conserva.",
  forbidden: "Este chat no está disponible en este sitio web.",
  failed: "Algo salió mal.",
  bookTitle: "Reservar una cita",
  service: "Servicio",
  date: "Fecha",
  time: "Hora",
  name: "Nombre",
  phone: "Teléfono",
  loadingSlots: "Cargando horarios libres…",
  noSlots: "No hay horarios libres este día. Elige otra fecha.",
  pickTime: "Elige una hora.",
  submitBooking: "Reservar",
  booking: "Reservando…",
  slotTaken: "Lo sentimos, esa hora acaba de ocuparse. Elige otra.",
  pastDate: "Elige una fecha a partir de hoy.",
  bookingUnavailable: "Las reservas no están disponibles aquí.",
  phoneInvalid: "Revisa el número de teléfono: escríbelo completo, por ejemplo 612 345 678 o +34 612 345 678.",
  nameInvalid: "Escribe tu nombre, por favor.",
  checkDetails: "Revisa los datos e inténtalo de nuevo.",
  unsent: "Algunos de tus mensajes aún no se han enviado.",
  booked: "Reserva confirmada",
  bookedAt: (service, date, time, zone) => `${service}, ${date} a las ${time} (${zone})`,
  bookedFor: (name, phone) => `Para ${name}, ${phone}`,
  bookAnother: "Reservar otra hora",
  backToChat: "Volver al chat",
}

const de: PanelStrings = {
  defaultTitle: "Schreiben Sie uns",
  close: "Schließen",
  chat: "Chat",
  book: "Termin buchen",
  conversation: "Unterhaltung",
  empty: "Fragen Sie uns etwas – wir antworten meist sofort.",
  loadingHistory: "Unterhaltung wird geladen…",
  you: "Sie",
  assistant: "Assistent",
  staff: "Ein Mensch aus dem Team",
  held: "Ein Mensch aus dem Team antwortet Ihnen hier.",
  typing: "Der Assistent schreibt…",
  sending: "Wird gesendet",
  notSent: "Nicht gesendet",
  message: "Nachricht",
  placeholder: "Nachricht schreiben…",
  send: "Senden",
  tooLong: "Eine Nachricht hat höchstens 2000 Zeichen: der Rest wurde weggelassen.",
  retry: "Erneut versuchen",
  retryIn: (s) => `Erneut versuchen in ${s} s.`,
  tooMany: "Zu viele Nachrichten auf einmal.",
  unavailable: "Der Chat ist gerade ausgelastet.",
  offline: "Sie scheinen offline zu sein, oder wir sind nicht erreichbar. Ihr Text bleibt erhalten.",
  forbidden: "Dieser Chat ist auf dieser Website nicht verfügbar.",
  failed: "Etwas ist schiefgegangen.",
  bookTitle: "Termin buchen",
  service: "Leistung",
  date: "Datum",
  time: "Uhrzeit",
  name: "Name",
  phone: "Telefon",
  loadingSlots: "Freie Zeiten werden geladen…",
  noSlots: "An diesem Tag ist nichts frei. Bitte wählen Sie ein anderes Datum.",
  pickTime: "Bitte wählen Sie eine Uhrzeit.",
  submitBooking: "Buchen",
  booking: "Wird gebucht…",
  slotTaken: "Diese Zeit wurde gerade vergeben. Bitte wählen Sie eine andere.",
  pastDate: "Bitte wählen Sie ein Datum ab heute.",
  bookingUnavailable: "Buchungen sind hier nicht verfügbar.",
  phoneInvalid: "Bitte prüfen Sie die Telefonnummer: mit Vorwahl, etwa 030 1234567 oder +49 30 1234567.",
  nameInvalid: "Bitte geben Sie Ihren Namen ein.",
  checkDetails: "Bitte prüfen Sie Ihre Angaben und versuchen Sie es noch einmal.",
  unsent: "Einige Ihrer Nachrichten wurden noch nicht gesendet.",
  booked: "Ihr Termin ist gebucht",
  bookedAt: (service, date, time, zone) => `${service}, ${date} um ${time} (${zone})`,
  bookedFor: (name, phone) => `Für ${name}, ${phone}`,
  bookAnother: "Weiteren Termin buchen",
  backToChat: "Zurück zum Chat",
}

const fr: PanelStrings = {
  defaultTitle: "Discutons",
  close: "Fermer",
  chat: "Chat",
  book: "Réserver",
  conversation: "Conversation",
  empty: "Posez-nous vos questions : nous répondons en général tout de suite.",
  loadingHistory: "Chargement de la conversation…",
  you: "Vous",
  assistant: "Assistant",
  staff: "Une personne de l'équipe",
  held: "Une personne de l'équipe vous répondra ici.",
  typing: "L’assistant écrit…",
  sending: "Envoi",
  notSent: "Non envoyé",
  message: "Message",
  placeholder: "Écrivez un message…",
  send: "Envoyer",
  tooLong: "Un message fait 2 000 caractères au plus : la suite n’a pas été gardée.",
  retry: "Réessayer",
  retryIn: (s) => `Vous pourrez réessayer dans ${s} s.`,
  tooMany: "Trop de messages à la fois.",
  unavailable: "Le chat est occupé pour le moment.",
  offline: "Vous semblez hors ligne, ou nous sommes injoignables. Votre texte est conservé.",
  forbidden: "Ce chat n’est pas disponible sur ce site.",
  failed: "Une erreur est survenue.",
  bookTitle: "Réserver un créneau",
  service: "Prestation",
  date: "Date",
  time: "Heure",
  name: "Nom",
  phone: "Téléphone",
  loadingSlots: "Chargement des créneaux libres…",
  noSlots: "Aucun créneau libre ce jour-là. Choisissez une autre date.",
  pickTime: "Choisissez une heure.",
  submitBooking: "Réserver",
  booking: "Réservation…",
  slotTaken: "Désolé, ce créneau vient d’être pris. Choisissez-en un autre.",
  pastDate: "Choisissez une date à partir d’aujourd’hui.",
  bookingUnavailable: "La réservation n’est pas disponible ici.",
  phoneInvalid:
    "Vérifiez le numéro de téléphone : écrivez-le en entier, par exemple 06 12 34 56 78 ou +33 6 12 34 56 78.",
  nameInvalid: "Indiquez votre nom, s’il vous plaît.",
  checkDetails: "Vérifiez vos informations et réessayez.",
  unsent: "Certains de vos messages n’ont pas encore été envoyés.",
  booked: "Votre réservation est confirmée",
  bookedAt: (service, date, time, zone) => `${service}, ${date} à ${time} (${zone})`,
  bookedFor: (name, phone) => `Pour ${name}, ${phone}`,
  bookAnother: "Réserver un autre créneau",
  backToChat: "Retour au chat",
}

const pt: PanelStrings = {
  defaultTitle: "Fale conosco",
  close: "Fechar",
  chat: "Chat",
  book: "Agendar",
  conversation: "Conversa",
  empty: "Pergunte o que quiser: costumamos responder na hora.",
  loadingHistory: "Carregando a conversa…",
  you: "Você",
  assistant: "Assistente",
  staff: "Uma pessoa da equipe",
  held: "Uma pessoa da equipe vai responder aqui.",
  typing: "O assistente está digitando…",
  sending: "Enviando",
  notSent: "Não enviada",
  message: "Mensagem",
  placeholder: "Escreva uma mensagem…",
  send: "Enviar",
  tooLong: "Uma mensagem tem no máximo 2000 caracteres: o resto ficou de fora.",
  retry: "Tentar de novo",
  retryIn: (s) => `Você pode tentar de novo em ${s} s.`,
  tooMany: "Mensagens demais de uma vez.",
  unavailable: "O chat está ocupado agora.",
  offline: "Parece que você está sem conexão, ou não conseguimos responder. O que você escreveu foi mantido.",
  forbidden: "Este chat não está disponível neste site.",
  failed: "Algo deu errado.",
  bookTitle: "Agendar um horário",
  service: "Serviço",
  date: "Data",
  time: "Horário",
  name: "Nome",
  phone: "Telefone",
  loadingSlots: "Carregando horários livres…",
  noSlots: "Nenhum horário livre neste dia. Escolha outra data.",
  pickTime: "Escolha um horário.",
  submitBooking: "Agendar",
  booking: "Agendando…",
  slotTaken: "Desculpe, esse horário acabou de ser ocupado. Escolha outro.",
  pastDate: "Escolha uma data a partir de hoje.",
  bookingUnavailable: "O agendamento não está disponível aqui.",
  phoneInvalid: "Confira o telefone: escreva com o DDD, por exemplo (11) 91234-5678 ou +55 11 91234-5678.",
  nameInvalid: "Escreva seu nome, por favor.",
  checkDetails: "Confira os dados e tente de novo.",
  unsent: "Algumas das suas mensagens ainda não foram enviadas.",
  booked: "Horário agendado",
  bookedAt: (service, date, time, zone) => `${service}, ${date} às ${time} (${zone})`,
  bookedFor: (name, phone) => `Para ${name}, ${phone}`,
  bookAnother: "Agendar outro horário",
  backToChat: "Voltar ao chat",
}

export const PANEL_STRINGS: Readonly<Record<Language, PanelStrings>> = { en, es, de, fr, pt }
