import { stemmer as en } from "@orama/stemmers/english"
import { stemmer as fr } from "@orama/stemmers/french"
import { stemmer as de } from "@orama/stemmers/german"
import { stemmer as pt } from "@orama/stemmers/portuguese"
import { stemmer as es } from "@orama/stemmers/spanish"
import MiniSearch from "minisearch"
import { fold, type Language, type PerLanguage } from "./text.ts"

/**
 * Finds the FAQ that answers a visitor's question, tolerating rewording: MiniSearch ranks the
 * profile's questions and answers by BM25; every word is folded (lower case, no accents), common
 * words are dropped, and each word is reduced to its stem (Snowball stemmers from @orama/stemmers:
 * "parking" and "park" meet) or to the concept it names ("price", "cost", "how much", "precio",
 * "Kosten", "tarif", "preço" are one concept), so a question asked in other words, or in another of
 * the five languages, still finds its answer. An answer is given only when the matched words cover
 * at least a third of what the question asks about; otherwise the assistant says it does not know.
 */

const STEMMERS: PerLanguage<(word: string) => string> = { en, es, de, fr, pt }

const STOP_WORDS = new Set(
  `a an the and or but of to in on at for from by with about as is are was be been being do does did have has had
  can could would will should may might must i me my we our us you your yours it its this that these those there here
  what when where which who whom why how any some all there's what's it's is there any also just please hi hello hey
  thanks thank get got make go going want like need know tell let ok okay yes no not really very first again still
  el la los las un una unos unas de del al y o pero en con por para sin sobre que es son esta estan ser hay mi mis tu
  tus su sus nuestro vuestro os me te se lo le les yo tambien muy mas ya como cuando donde quien hola gracias puedo
  podeis puede pueden teneis tiene tienen hacer si no vuestra vuestros
  der die das den dem des ein eine einen einem einer und oder aber in im an am auf fur mit von zu zum zur bei aus nach
  ist sind war sein hat haben habt ich du er sie es wir ihr mich mir dich uns euch euer eure ihre mein meine kann
  konnen konnt man gibt es auch noch nur schon sehr wie wo was wann wer hallo danke bitte
  le la les un une des du de d l et ou mais en dans sur pour par avec sans au aux ce cette ces est sont etre a ai as
  avez avons ont je tu il elle on nous vous mon ma mes ton ta tes son sa ses notre nos votre vos qui que quoi quel
  quelle quels quelles ou comment quand est-ce y bonjour merci puis peut pouvez ca c
  o a os as um uma uns umas de do da dos das e em no na nos nas por para com sem que qual quais eu voce voces meu
  minha seu sua nosso tem ter ha ser esta estao sao posso pode podem da pra como quando onde ola oi obrigado muito
  moment now currently today right ahora actualmente momento jetzt momentan aktuell gerade maintenant actuellement
  agora atualmente`
    .split(/\s+/)
    .filter((word) => word !== ""),
)

/** Words that name one concept, in all five languages (folded). */
const CONCEPTS: Readonly<Record<string, ReadonlyArray<string>>> = {
  price: `price prices pricing cost costs much fee fees charge charges expensive cheap rate rates plans
    precio precios cuesta cuestan coste costo cuanto tarifa tarifas caro
    preis preise kosten kostet teuer tarif tarife gebuhr gebuhren
    prix cout coute coutent tarif tarifs combien cher formules
    preco precos custa custam custo valor valores quanto caro`.split(/\s+/),
  parking: `park parking parked car cars garage
    aparcar aparcamiento aparco coche estacionar
    parken parkplatz parkplatze parkmoglichkeit parkmoglichkeiten parkhaus
    garer gare parking stationner stationnement voiture
    estacionar estacionamento estaciono carro`.split(/\s+/),
  location: `address located location office offices directions situated
    direccion ubicacion oficina oficinas situados estais estamos
    adresse buro standort anfahrt sitz
    adresse bureau bureaux situe situes trouvez trouve
    endereco escritorio localizacao ficam fica localizados`.split(/\s+/),
  trial: `trial try trying test testing
    prueba probar probarlo gratis
    testen testphase test probieren kostenlos
    essai essayer tester gratuit gratuitement gratuite
    teste testar experimentar gratis`.split(/\s+/),
  payment: `pay paying payment payments card cards credit visa mastercard paypal transfer
    pagar pago pagos tarjeta bizum transferencia
    zahlen zahlung zahlungsarten bezahlen lastschrift kreditkarte uberweisung
    payer paiement paiements moyens carte virement prelevement
    pagar pagamento pagamentos pix boleto cartao`.split(/\s+/),
  integration: `integrate integrates integration integrations connect connects compatible
    integra integrar integracion conectar compatible
    schnittstelle integration integrieren anbindung kompatibel
    compatible integration integrer connecter
    integra integrar integracao conectar compativel`.split(/\s+/),
  cancellation: `cancel cancelling quit contract terminate commitment subscription
    baja cancelar permanencia contrato
    kundigen kundigung mindestlaufzeit vertrag laufzeit
    resilier resiliation engagement contrat
    cancelar fidelidade contrato multa`.split(/\s+/),
  security: `safe secure security privacy private data gdpr encrypted stored
    seguro seguros seguridad datos rgpd privacidad guardan
    sicher sicherheit daten dsgvo dsgvo-konform datenschutz
    securite donnees rgpd confidentialite hebergees heberge
    seguro seguros seguranca dados lgpd privacidade`.split(/\s+/),
  weekend: `weekend weekends saturday saturdays sunday sundays
    finde sabado sabados domingo domingos
    wochenende samstag samstags sonntag sonntags
    week-end samedi dimanche
    sabado sabados domingo domingos`.split(/\s+/),
}

const CONCEPT_OF = new Map<string, string>(
  Object.entries(CONCEPTS).flatMap(([concept, words]) =>
    words.filter((word) => word !== "").map((word) => [word, `§${concept}`] as const),
  ),
)

const termOf =
  (language: Language) =>
  (term: string): string | null => {
    const word = fold(term)
    // Numbers are not what a question is about ("14:30" is not the "14 days" of a trial).
    if (word.length < 2 || STOP_WORDS.has(word) || /^\d+$/.test(word)) return null
    return CONCEPT_OF.get(word) ?? STEMMERS[language](word)
  }

const tokenize = (text: string): Array<string> => text.split(/[^\p{L}\p{N}$€£-]+/u).filter((word) => word !== "")

export interface Faq {
  readonly question: string
  readonly answer: string
}

interface Index {
  readonly search: MiniSearch<{ id: number; question: string; answer: string }>
  readonly process: (term: string) => string | null
}

/** Indexes built for the FAQ lists in use, most recent last (FAQs change rarely). */
const INDEXES = new Map<string, Index>()
const MAX_INDEXES = 200

const indexOf = (faqs: ReadonlyArray<Faq>, language: Language): Index => {
  const key = `${language}\u0000${JSON.stringify(faqs)}`
  const cached = INDEXES.get(key)
  if (cached !== undefined) {
    INDEXES.delete(key)
    INDEXES.set(key, cached)
    return cached
  }
  const process = termOf(language)
  const search = new MiniSearch<{ id: number; question: string; answer: string }>({
    fields: ["question", "answer"],
    tokenize,
    processTerm: process,
    searchOptions: { boost: { question: 2 }, combineWith: "OR", fuzzy: (term) => (term.length >= 6 ? 0.15 : false) },
  })
  search.addAll(faqs.map((faq, id) => ({ id, question: faq.question, answer: faq.answer })))
  const index = { search, process }
  INDEXES.set(key, index)
  if (INDEXES.size > MAX_INDEXES) INDEXES.delete(INDEXES.keys().next().value as string)
  return index
}

/** The FAQ that answers `question`, or `undefined`. `language` picks the stemmer (the profile's default). */
export const findFaq = (faqs: ReadonlyArray<Faq>, question: string, language: Language): Faq | undefined => {
  if (faqs.length === 0) return undefined
  const index = indexOf(faqs, language)
  const asked = new Set(
    tokenize(question)
      .map(index.process)
      .filter((term): term is string => term !== null),
  )
  if (asked.size === 0) return undefined
  const [best] = index.search.search(question)
  if (best === undefined) return undefined
  const matched = new Set(best.terms)
  const covered = [...asked].filter((term) => matched.has(term)).length
  return covered * 3 >= asked.size ? faqs[best.id as number] : undefined
}
