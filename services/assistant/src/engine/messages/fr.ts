import type { Catalog } from "./catalog.ts"

const to = (name: string | undefined) => (name === undefined ? "" : `, ${name}`)

export const fr: Catalog = {
  greeting: (business) =>
    `Bonjour et bienvenue${business === "" ? "" : ` chez ${business}`} ! Je peux répondre à vos questions, organiser un rappel ou réserver un rendez-vous. Que puis-je faire pour vous ?`,
  menu: (business) =>
    `Je peux répondre à vos questions${business === "" ? "" : ` sur ${business}`}, organiser un rappel ou réserver un rendez-vous. Que souhaitez-vous ?`,
  helloBack: () =>
    "Bonjour ! Dites-moi ce dont vous avez besoin : je peux répondre à une question, réserver un rendez-vous ou organiser un rappel.",
  niceToMeet: (name) => `Enchanté, ${name} ! Que puis-je faire pour vous ?`,
  nameNoted: (name, day, time) => `Merci, ${name} ! J'ai bien noté votre nom. À ${day} à ${time}.`,
  closing: (name) => `Avec plaisir${to(name)} ! Si vous avez besoin d'autre chose, écrivez-moi ici.`,
  closingBooked: (name, day, time) => `Avec plaisir${to(name)} ! À ${day} à ${time}.`,
  allSet: (name, day, time) => `C'est tout bon${to(name)} ! À ${day} à ${time}.`,
  noted: (name) => `Très bien${to(name)}. Si vous avez besoin d'autre chose, écrivez-moi ici.`,
  otherTime: () => "Pas de problème. Quel autre jour ou quelle autre heure vous conviendrait ?",
  whichDay: () => "Quel jour vous conviendrait ?",
  whatElse: () => "Bien sûr — que puis-je faire pour vous ?",

  askPhoneForCallback: (name) => `Bien sûr${to(name)}. À quel numéro de téléphone pouvons-nous vous rappeler ?`,
  askPhoneForDemo: (name) =>
    `Avec plaisir, nous allons organiser une démo${to(name)}. À quel numéro de téléphone pouvons-nous vous joindre ?`,
  callbackNoted: (name, phone) => `Merci${to(name)} ! Nous vous rappellerons au ${phone} dès que possible.`,
  demoNoted: (name, phone) => `Merci${to(name)} ! Nous vous contacterons au ${phone} pour organiser la démo.`,
  numberNoted: (name, phone) =>
    `Merci${to(name)}, j'ai noté votre numéro : ${phone}. Un membre de l'équipe reviendra vers vous.`,
  numberNotedWhichTime: (name, phone, day) =>
    `Merci${to(name)}, j'ai noté votre numéro : ${phone}. Quel créneau vous convient le ${day} ?`,
  nameNotedWhichTime: (name, day) => `Merci, ${name}. Quel créneau vous convient le ${day} ?`,
  phoneCorrected: (phone) => `C'est noté, j'ai remplacé votre numéro par le ${phone}.`,
  callWithdrawn: (name) =>
    `Pas de souci${to(name)}, nous ne vous appellerons pas. Puis-je vous aider pour autre chose ?`,
  howToStopMessages: () =>
    `Pour ne plus recevoir nos messages promotionnels, répondez simplement par le mot ARRET (ou STOP).`,
  notContacted: () => `C'est noté : nous ne vous contacterons pas, sauf si vous nous le demandez.`,

  offerTimes: (service, day, times) => `Créneaux libres pour ${service} le ${day} : ${times}. Lequel vous convient ?`,
  dayFull: (service, day) => `Désolé, le ${day} est complet pour ${service}. Un autre jour vous conviendrait-il ?`,
  closedDay: (day, nextOpen) =>
    `Désolé, nous sommes fermés le ${day}.${nextOpen === undefined ? " Un autre jour vous conviendrait-il ?" : ` Le prochain jour d'ouverture est le ${nextOpen}. Cela vous convient-il ?`}`,
  pastTime: (day, time, later) =>
    `Désolé, ${time} le ${day}, c'est déjà passé.${later === undefined ? " Un autre jour vous conviendrait-il ?" : ` Encore libres ce jour-là : ${later}.`}`,
  slotNotOffered: (day, time, times) =>
    `Nous n'avons pas de créneau à ${time} le ${day}. ${times === "" ? "Un autre jour vous conviendrait-il ?" : `Créneaux libres ce jour-là : ${times}. Lequel préférez-vous ?`}`,
  outsideHours: (day, time, ranges, times) =>
    `À ${time}, nous sommes fermés le ${day} (ouvert ${ranges}). ${times === "" ? "Un autre jour vous conviendrait-il ?" : `Créneaux libres ce jour-là : ${times}. Lequel préférez-vous ?`}`,
  slotTaken: (day, time, times) =>
    `Désolé, ${time} le ${day} est déjà pris. ${times === "" ? "Il n'y a plus rien ce jour-là ; un autre jour vous conviendrait-il ?" : `Encore libres : ${times}. Lequel préférez-vous ?`}`,
  noOpenDay: (service) =>
    `Désolé, il n'y a pas de créneau libre pour ${service} dans les deux prochaines semaines. Voulez-vous qu'un membre de l'équipe vous rappelle ? Laissez-nous votre numéro.`,
  whichTime: (day) => `À quelle heure le ${day} ?`,
  whichDate: (first, second) => `Pour être sûr : vous voulez dire le ${first} ou le ${second} ?`,
  weekdayMismatch: (named, byWeekday, byDay) =>
    `Pour être sûr : vous voulez dire le ${byWeekday} ou le ${byDay} ? (La date indiquée n'est pas un ${named}.)`,

  askName: (service, day, time) =>
    `Le ${day} à ${time}, c'est libre pour ${service}. À quel nom dois-je faire la réservation ?`,
  proposeSlot: (service, day, time) =>
    `Le ${day} à ${time}, c'est disponible pour ${service}. Voulez-vous que je le réserve ?`,
  askPhoneForBooking: (name) => `Merci${to(name)} ! Quel numéro de téléphone dois-je indiquer pour la réservation ?`,
  booked: (name, service, day, time) => `C'est réservé${to(name)} : ${service} le ${day} à ${time}. À bientôt !`,
  cancelled: (service, day, time) =>
    `C'est fait : votre ${service} du ${day} à ${time} est annulé. Voulez-vous réserver un autre créneau ?`,
  notThatBooking: (named, service, day, time) =>
    `Je ne trouve pas de réservation le ${named}. Celle que j'ai est votre ${service} du ${day} à ${time} ; dites « annulez-la » et je l'annule.`,
  nothingToCancel: () =>
    "Je ne trouve aucune réservation faite dans cette conversation à annuler. Voulez-vous qu'un membre de l'équipe vous rappelle ?",
  yourBooking: (service, day, time) => `Oui, votre rendez-vous (${service}) est bien le ${day} à ${time}. À bientôt !`,
  noBookingHeld: () =>
    "Je ne trouve pas de réservation faite dans cette conversation. Voulez-vous en prendre une, ou qu'un membre de l'équipe vous rappelle ?",
  noSuchDate: (written) => `Le ${written} n'existe pas. Quel jour vouliez-vous dire ?`,
  whichService: (list) => `Quelle prestation souhaitez-vous : ${list} ?`,
  checkNumber: (written) =>
    `Je ne suis pas sûr que le ${written} soit un numéro que nous pouvons appeler. Pourriez-vous le vérifier, ou l'écrire avec l'indicatif du pays (par ex. +33 …) ?`,
  moved: (service, day, time) => `C'est fait, votre ${service} est déplacé au ${day} à ${time}. À bientôt !`,

  hours: (week) => `Nos horaires : ${week}.`,
  hoursOn: (day, ranges) => `Le ${day}, nous sommes ouverts de ${ranges}.`,
  closedOn: (day) => `Nous sommes fermés le ${day}.`,
  openNow: (close, later, yes = true) =>
    `${yes ? "Oui, nous sommes" : "Nous sommes"} ouverts en ce moment, jusqu'à ${close} aujourd'hui${later === undefined ? "" : `, puis de nouveau de ${later}`}.`,
  closedNowOpensToday: (time) => `Nous sommes fermés en ce moment ; nous ouvrons aujourd'hui à ${time}.`,
  closedNowOpensOn: (day, time) => `Nous sommes fermés en ce moment ; nous rouvrons le ${day} à ${time}.`,
  closedForToday: (nextOpen) =>
    `Désolé, nous sommes déjà fermés pour aujourd'hui.${nextOpen === undefined ? " Un autre jour vous conviendrait-il ?" : ` Le prochain jour d'ouverture est le ${nextOpen}. Cela vous convient-il ?`}`,
  services: (list, offerBooking = true) => `Nous proposons ${list}.${offerBooking ? " Souhaitez-vous réserver ?" : ""}`,
  about: (business, about) =>
    about === undefined ? `Ici ${business}. Que puis-je faire pour vous ?` : `Ici ${business}. ${about}`,
  stepFailed: () =>
    "Désolé, un problème de notre côté m'a empêché de terminer. Rien n'a été modifié : pouvez-vous réessayer dans un instant ?",
  cannotTell: (kind) =>
    kind === "price"
      ? "Je ne peux pas vous donner le prix ici, en revanche."
      : "Je ne peux pas vous dire où exactement ici, en revanche.",
  offerCallback: () => "Voulez-vous que quelqu'un de l'équipe vous rappelle ?",
  dontKnow: () => "Désolé, je ne connais pas la réponse. Voulez-vous qu'un membre de l'équipe vous rappelle ?",
  weekRange: (first, last) => `du ${first} au ${last}`,
  closedDays: (days) => `fermé le ${days}`,
}
