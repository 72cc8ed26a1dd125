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

/**
 * A word's stem in `language`, folded: stemmed with its accents, which the Snowball suffixes carry
 * ("desparasitación" and "desparasitar" → "desparasit"; folded first, the noun kept its "-acion").
 */
export const stemOf = (word: string, language: Language): string => fold(STEMMERS[language](word.toLowerCase()))

const STOP_WORDS = new Set(
  `a an the and or but of to in on at for from by with about as is are was be been being do does did have has had
  can could would will should may might must i me my we our us you your yours it its this that these those there here
  she he her him his hers they them their theirs
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
  agora atualmente oye ahi alli aqui aca algo ir pues bueno entonces wenn ihnen euch dann denn mal doch
  aussi alors donc bien tout toute tous also again exactly exactamente genau exactement exatamente
  hace hacen hago haces machen macht mache machst fais fait faites font faire faz fazem fazer faco
  week weeks semana semanas woche wochen semaine semaines desde hasta ire voy vamos iremos
  too only solo solamente nur seulement juste apenas somente so
  if wenn falls happen happens happened pasa pasaria ocurre passiert passe arrive acontece`
    .split(/\s+/)
    .filter((word) => word !== ""),
)

/** Words that name one concept, in all five languages (folded). */
const CONCEPTS: Readonly<Record<string, ReadonlyArray<string>>> = {
  price: `price prices pricing cost costs much fee fees charge charges expensive cheap rate rates plans spend
    precio precios cuesta cuestan coste costo cuanto tarifa tarifas caro
    preis preise kosten kostet teuer tarif tarife gebuhr gebuhren selbstzahler
    prix cout coute coutent tarif tarifs combien cher formules payant payante
    preco precos custa custam custo valor valores quanto caro gastar mensalidade`.split(/\s+/),
  parking: `park parking parked car cars garage drive driving lot
    aparcar aparcamiento aparco coche coches estacionar
    parken parkplatz parkplatze parkmoglichkeit parkmoglichkeiten parkhaus auto abstellen patientenparkplatze
    garer gare parking stationner stationnement voiture garer
    estacionar estacionamento estaciono carro`.split(/\s+/),
  location: `address located location office offices directions situated street avenue find
    direccion calle ubicacion oficina oficinas situados estais estamos
    adresse buro standort anfahrt sitz finden strasse gasse liegt liegen befindet befinden gelegen
    adresse bureau bureaux situe situes trouvez trouve rue
    endereco escritorio localizacao ficam fica ficamos localizados rua`.split(/\s+/),
  trial: `trial try trying test testing
    prueba probar probarlo gratis
    testen testphase test probieren kostenlos
    essai essayer tester gratuit gratuitement gratuite
    teste testar experimentar gratis`.split(/\s+/),
  payment: `pay paying payment payments card cards credit visa mastercard paypal transfer
    pagar pago pagos tarjeta bizum transferencia movil
    zahlen zahlung zahlungsarten bezahlen lastschrift kreditkarte uberweisung
    payer regler reglement paiement paiements moyens carte virement prelevement
    pagar pagamento pagamentos pix boleto cartao`.split(/\s+/),
  integration: `integrate integrates integration integrations connect connects compatible
    integra integrar integracion conectar compatible
    schnittstelle integration integrieren anbindung kompatibel
    compatible integration integrer connecter
    integra integrar integracao conectar compativel`.split(/\s+/),
  cancellation: `cancel cancelling cancellation quit contract terminate commitment subscription no-show
    baja cancelar anulo anular anulacion permanencia contrato surge
    kundigen kundigung mindestlaufzeit vertrag laufzeit absagen dazwischenkommt
    resilier resiliation engagement contrat annuler annulation
    cancelar fidelidade contrato multa desmarcar remarcar`.split(/\s+/),
  accessible: `wheelchair wheelchairs accessible accessibility elevator lift stairs steps
    silla sillas ruedas accesible accesibilidad escalones ascensor
    rollstuhl rollstuhlgerecht barrierefrei ebenerdig aufzug stufen
    fauteuil roulant accessible accessibilite ascenseur marches
    cadeira cadeirante acessivel acessibilidade elevador degraus`.split(/\s+/),
  insurance: `insurance insurances insurer insurers insured medicare medicaid aetna cigna
    seguro seguros aseguradora aseguradoras mutua mutuas
    krankenkasse krankenkassen kassenpatient kassenpatienten versicherung versicherungen krankenversicherung
    krankenversicherungen versichert verordnung rezept gesetzlich gesetzlichen privat
    mutuelle mutuelles assurance assurances secu
    convenio convenios plano planos seguradora seguradoras reembolso`.split(/\s+/),
  bring: `bring
    llevar traer
    mitbringen dabeihaben mitnehmen
    apporter amener
    levar trazer`.split(/\s+/),
  loan: `loan loaner replacement courtesy borrow lend
    prestamo sustitucion prestar prestais prestan
    leihrad ersatz leihen ausleihen
    pret courtoisie deplacer preter pretez emprunter
    emprestimo emprestar emprestam`.split(/\s+/),
  instalments: `instalments installments financing finance
    plazos financiacion
    raten ratenzahlung finanzierung
    fois plusieurs echelonne
    parcelar parcelado parcelas vezes`.split(/\s+/),
  security: `safe secure security privacy private data gdpr encrypted stored
    seguro seguros seguridad datos rgpd privacidad guardan
    sicher sicherheit daten dsgvo dsgvo-konform datenschutz
    securite donnees rgpd confidentialite hebergees heberge
    seguro seguros seguranca dados lgpd privacidade`.split(/\s+/),
  checkup: `checkup check-up tune-up inspection servicing overhaul
    revision revisar puesta
    inspektion durchsicht wartung
    revision verifier verification entretien controle
    revisao revisar manutencao`.split(/\s+/),
  duration: `duration long last lasts
    duracion dura duran tarda tardan
    dauer dauert halt
    duree dure durent tient tiennent
    duracao dura duram demora demoram`.split(/\s+/),
  removal: `remove removal removing
    quitar quitado retirar retirada
    entfernen entfernung abnehmen ablosen
    enlever depose deposer retirer retrait
    remover remocao retirar tirar`.split(/\s+/),
  waiting: `wait waiting
    esperar espera
    warten wartezimmer wartebereich
    attendre attente
    esperar espera aguardar`.split(/\s+/),
  pregnancy: `pregnant pregnancy expecting
    embarazada embarazadas embarazo gestante gestantes
    schwanger schwangere schwangerschaft
    enceinte enceintes grossesse
    gravida gravidas gravidez gestante gestantes`.split(/\s+/),
  weekend: `weekend weekends saturday saturdays sunday sundays
    finde sabado sabados domingo domingos
    wochenende samstag samstags sonntag sonntags
    week-end samedi dimanche
    sabado sabados domingo domingos`.split(/\s+/),
}

/**
 * Verbs that say the same thing ("do you take / accept …", "nehmen Sie", "vous prenez", "aceitam";
 * "do you sell …", "vendéis", "vous vendez"): they carry a question across its rewording but never
 * name what it is about, so a match on them alone answers nothing ("how long does it take?" is not
 * about what a business accepts, "do you sell printers?" not about its point-of-sale software).
 */
const VERBS: Readonly<Record<string, ReadonlyArray<string>>> = {
  sell: `sell sells selling sold sale
    vender vendeis venden vendemos venta
    verkaufen verkauft verkauf
    vendre vendez vendons vend vente
    vender vendem vendemos venda`.split(/\s+/),

  accept: `accept accepts accepted take takes taking
    acepta aceptan aceptais aceptas aceptar aceptamos admite admiten admitis trabajais trabajan
    akzeptieren akzeptiert akzeptierst nehmen nehmt nimmt annehmen
    accepte acceptez acceptent accepter acceptes prenez prend prennent prendre
    aceita aceitam aceitar aceitamos atende atendem trabalham`.split(/\s+/),
}

/** Each word's concepts: a word may name two ("seguro" is insurance and safe in Spanish). */
const CONCEPT_OF = new Map<string, Array<string>>()
for (const [marker, table] of [
  ["§", CONCEPTS],
  ["~", VERBS],
] as const) {
  for (const [concept, words] of Object.entries(table)) {
    for (const word of words.filter((word) => word !== "")) {
      const concepts = CONCEPT_OF.get(word) ?? []
      if (!concepts.includes(`${marker}${concept}`)) concepts.push(`${marker}${concept}`)
      CONCEPT_OF.set(word, concepts)
    }
  }
}

/**
 * The concept words by their stem in each language, so a plural or another form still names it
 * ("insurances", "Versicherungen"). Participles and gerunds are left out: their stem is often a
 * word of its own ("stored" → "store", which a shop is).
 */
const CONCEPT_OF_STEM: PerLanguage<Map<string, Array<string>>> = (() => {
  const of = (language: Language) => {
    const stems = new Map<string, Array<string>>()
    for (const [word, concepts] of CONCEPT_OF) {
      if (/(?:ed|ing)$/.test(word)) continue
      const stem = STEMMERS[language](word)
      if (stem.length >= 4 && !stems.has(stem)) stems.set(stem, concepts)
    }
    return stems
  }
  return { en: of("en"), es: of("es"), de: of("de"), fr: of("fr"), pt: of("pt") }
})()

const termOf =
  (language: Language) =>
  (term: string): string | Array<string> | null => {
    const word = fold(term)
    // Numbers are not what a question is about ("14:30" is not the "14 days" of a trial).
    if (word.length < 2 || STOP_WORDS.has(word) || /^\d+$/.test(word)) return null
    const concepts = CONCEPT_OF.get(word)
    if (concepts !== undefined) return concepts
    const stem = STEMMERS[language](word)
    return CONCEPT_OF_STEM[language].get(stem) ?? stem
  }

/** Words, a hyphenated one also by its parts ("semi-permanent" is found by "semi"). */
const tokenize = (text: string): Array<string> =>
  text
    .split(/[^\p{L}\p{N}$€£-]+/u)
    .filter((word) => word !== "")
    .flatMap((word) => (/\p{L}-\p{L}/u.test(word) ? [word, ...word.split("-").filter((part) => part !== "")] : [word]))

export interface Faq {
  readonly question: string
  readonly answer: string
}

interface Entry {
  readonly id: number
  readonly question: string
  readonly answer: string
}

interface Index {
  readonly search: MiniSearch<Entry>
  readonly process: (term: string) => string | Array<string> | null
  readonly entries: ReadonlyArray<Faq>
  /** How many entries each (processed) term occurs in. */
  readonly spread: ReadonlyMap<string, number>
}

/** Indexes built for the knowledge in use, most recent last (FAQs and `about` change rarely). */
const INDEXES = new Map<string, Index>()
const MAX_INDEXES = 200

/** The sentences of `about`, each an answer of its own ("where are you?" → the one with the address). */
const sentencesOf = (about: string | undefined): ReadonlyArray<string> =>
  (about ?? "")
    // Not after an ordinal ("im Hinterhof, 1. Stock").
    .split(/(?<=(?<!(?<![\p{L}\p{N}])\d{1,2})[.!?])\s+(?=\p{Lu}|\d)/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "")

const indexOf = (faqs: ReadonlyArray<Faq>, about: string | undefined, language: Language): Index => {
  const key = `${language}\u0000${about ?? ""}\u0000${JSON.stringify(faqs)}`
  const cached = INDEXES.get(key)
  if (cached !== undefined) {
    INDEXES.delete(key)
    INDEXES.set(key, cached)
    return cached
  }
  const process = termOf(language)
  const search = new MiniSearch<Entry>({
    fields: ["question", "answer"],
    tokenize,
    processTerm: process,
    searchOptions: { boost: { question: 2 }, combineWith: "OR", fuzzy: (term) => (term.length >= 6 ? 0.15 : false) },
  })
  // An FAQ answers first (its question was written for it); a sentence of `about` when no FAQ does.
  const entries: ReadonlyArray<Faq> = [...faqs, ...sentencesOf(about).map((answer) => ({ question: "", answer }))]
  search.addAll(
    entries.map((entry, id) => ({ id, question: plainText(entry.question), answer: plainText(entry.answer) })),
  )
  // How many entries speak of each term: a word most of them use is the business's own vocabulary
  // ("repair" at a repair shop), which names no one entry.
  const spread = new Map<string, number>()
  for (const entry of entries) {
    const terms = new Set(
      tokenize(plainText(`${entry.question} ${entry.answer}`)).flatMap((term) => process(term) ?? []),
    )
    for (const term of terms) spread.set(term, (spread.get(term) ?? 0) + 1)
  }
  const index = { search, process, entries, spread }
  INDEXES.set(key, index)
  if (INDEXES.size > MAX_INDEXES) INDEXES.delete(INDEXES.keys().next().value as string)
  return index
}

/**
 * The kinds of fact a question can ask for: an entry that does not state one the question asks for
 * does not answer that part ("how much is a cleaning?" is not answered by "we do check-ups, cleaning
 * and whitening").
 */
export type FactKind = "price" | "location"
const FACT_KINDS: ReadonlyArray<FactKind> = ["price", "location"]

/** An FAQ or a sentence of `about` that answers a question, and the facts asked for it does not give. */
export interface Answer extends Faq {
  readonly missing: ReadonlyArray<FactKind>
}

/**
 * The FAQ, or the sentence of `about`, that answers `question`, or `undefined`. `language` picks the
 * stemmer (the profile's default). When the best entry answers the question but not the kind of fact
 * it asks for (a price, a place), `missing` names it: the caller says it cannot tell that part.
 */
export const findAnswer = (
  faqs: ReadonlyArray<Faq>,
  about: string | undefined,
  question: string,
  language: Language,
  /** The business's name: its words name the business, never one entry ("hair" at a hair studio). */
  businessName = "",
): Answer | undefined => {
  if (faqs.length === 0 && (about ?? "").trim() === "") return undefined
  const index = indexOf(faqs, about, language)
  const termsOf = (text: string) =>
    new Set(
      tokenize(text)
        .flatMap((term) => index.process(term) ?? [])
        .filter((term) => term !== ""),
    )
  const asked = termsOf(askedText(question))
  if (asked.size === 0) return undefined
  const results = index.search.search(askedText(question))
  // What the question is about must be covered for a third at least; a concept matched ("parking",
  // "price") names the subject and weighs double against the words around it ("is parking easy round there,
  // or should I take the bus?" is a parking question). A verb ("take", "accept") alone names no subject.
  const coverage = (result: { readonly terms: ReadonlyArray<string> }): number => {
    const matched = new Set(result.terms)
    const weight = (term: string) => (matched.has(term) && term.startsWith("§") ? 2 : 1)
    const total = [...asked].reduce((sum, term) => sum + weight(term), 0)
    const covered = [...asked].filter((term) => matched.has(term))
    if (!covered.some((term) => !term.startsWith("~"))) return 0
    return covered.reduce((sum, term) => sum + weight(term), 0) / total
  }
  // A word the business never wrote (in no FAQ, no sentence of `about`) may be what the question is
  // about ("do you also repair electric scooters?" at a bike shop): the entry must then be found by a
  // word of its own — a concept, or a word few entries use — not only by the business's everyday
  // vocabulary ("repair", "electric"), which every entry shares and which names none of them.
  const unknown = [...asked].filter((term) => !term.startsWith("~") && !index.spread.has(term))
  const distinctive = Math.max(1, Math.floor(index.entries.length / 4))
  // "Do you do wedding hair?" at Bella Hair Studio: "hair" is what the whole business is about, so the
  // sentence naming it is no answer to the wedding.
  const named = termsOf(plainText(businessName))
  const namesIt = (result: { readonly terms: ReadonlyArray<string> }): boolean =>
    unknown.length === 0 ||
    result.terms.some(
      (term) =>
        asked.has(term) &&
        !term.startsWith("~") &&
        !named.has(term) &&
        (term.startsWith("§") || (index.spread.get(term) ?? 0) <= distinctive),
    )
  // A place is asked for by "where" (or "address", "directions"…), not by a word that names one as the
  // object of another question ("can she get up to your office?" asks about access).
  const kinds = FACT_KINDS.filter(
    (kind) => asked.has(`§${kind}`) && (kind !== "location" || ASKS_WHERE.test(askedText(question))),
  )
  const missingIn = (id: number): ReadonlyArray<FactKind> => {
    const entry = index.entries[id]
    if (entry === undefined || kinds.length === 0) return []
    const has = termsOf(plainText(`${entry.question} ${entry.answer}`))
    // An address is a place even without the word ("12 Harbor Street" has "street"; "where" asks it);
    // an amount of money is a price ("else $15", "15 €").
    const amount = MONEY.test(entry.answer)
    return kinds.filter((kind) => !has.has(`§${kind}`) && !(kind === "price" && amount))
  }
  // Of the best-ranked entries that answer it (an FAQ's question weighs double, so an FAQ written for the
  // question ranks first), the one that states the kind of fact asked, then the one that covers most of
  // what is asked ("do you sell bikes or only repair them?" is answered by the sentence that says what
  // is sold, not by the repair FAQ that shares "bikes" and "repair"), then the best ranked; one that
  // shares only a word or two is passed over.
  const candidates = results
    .slice(0, 3)
    .map((result, rank) => ({
      result,
      rank,
      coverage: coverage(result),
      complete: missingIn(result.id as number).length === 0,
      // "Where exactly are you?" is answered by the address (a street and its number), not by the
      // way there from the station, which names a street too.
      address: kinds.includes("location") && ADDRESS.test(index.entries[result.id as number]?.answer ?? ""),
    }))
    .filter((candidate) => candidate.coverage * 3 >= 1 && namesIt(candidate.result))
    .sort(
      (a, b) =>
        Number(b.complete) - Number(a.complete) ||
        Number(b.address) - Number(a.address) ||
        b.coverage - a.coverage ||
        a.rank - b.rank,
    )
  const best = candidates[0]?.result
  if (best === undefined) return undefined
  const entry = index.entries[best.id as number]
  if (entry === undefined) return undefined
  return { ...entry, missing: missingIn(best.id as number) }
}

/** The FAQ that answers `question`, or `undefined`. */
export const findFaq = (faqs: ReadonlyArray<Faq>, question: string, language: Language): Answer | undefined =>
  findAnswer(faqs, undefined, question, language)

/** An address: a street word and a number beside it ("214 Maple Avenue", "Lychener Straße 12", "Rua Harmonia, 560"). */
const ADDRESS =
  /\d+[a-z]?,?\s+(?:[\p{L}'.-]+\s+){0,3}(?:street|st\.|avenue|ave\.|road|blvd|boulevard|lane)(?![\p{L}])|(?<![\p{L}])(?:calle|carrera|cra\.|avenida|av\.|rua|rue|boulevard|place|stra(?:ss|ß)e|str\.|weg|platz|allee)\s+(?:[\p{L}'.-]+\s+){0,4}\d+|(?:[\p{L}-]+)(?:stra(?:ss|ß)e|str\.|weg|platz|allee)\s+\d+/iu

/** An amount of money: "$15", "15 €", "R$ 70", "EUR 20". */
const MONEY = /(?:[$€£]|R\$|\b(?:EUR|USD|GBP|BRL|COP)\b)\s?\d|\d\s?(?:[€£]|\b(?:EUR|USD|euros?|dólares|reais|pesos)\b)/u

/**
 * "Where are you?" in the five languages asks for the address, though "where" alone says little;
 * also with "exactly" between ("wo genau seid ihr?", "¿dónde exactamente están?").
 */
const WHERE_ARE_YOU =
  /(?<![\p{L}])(?:where\s+(?:are|r|is)\s+(?:you|u|your|the)|where\s+exactly|d[oó]nde\s+(?:exactamente\s+)?(?:est[aá]is|est[aá]n|queda|os\s+encuentro|se\s+encuentra)|wo\s+(?:genau\s+|denn\s+|eigentlich\s+)?(?:seid\s+ihr|sind\s+sie|finde|befinde|ist\s+die\s+praxis|liegt)|vous\s+[eê]tes\s+o[uù]|o[uù]\s+[eê]tes[\s-]vous|o[uù]\s+vous\s+trouve|o[uù]\s+se\s+trouve|onde\s+(?:exatamente\s+|mesmo\s+)?(?:voc[eê]s\s+)?(?:ficam|fica|est[aã]o)|ficam\s+onde|fica\s+onde|c'?est\s+o[uù]|o[uù]\s+c'est|d[oó]nde\s+es(?:t[aá])?\s+(?:eso|exactamente)|wo\s+ist\s+(?:das|es)|onde\s+[eé]\s+(?:isso|exatamente))(?![\p{L}])/iu

/** Words that ask where something is, in the five languages. */
const ASKS_WHERE =
  /(?<![\p{L}])(?:where|address|located|location|directions|how\s+(?:do|can)\s+i\s+get\s+there|d[oó]nde|direcci[oó]n|ubicaci[oó]n|c[oó]mo\s+llego|wo|adresse|anfahrt|standort|o[uù]|situ[eé]s?|comment\s+venir|onde|endere[cç]o|localiza[cç][aã]o|como\s+chego)(?![\p{L}])/iu

/**
 * Idioms whose words say nothing of what they mean ("what would it set me back" asks a price), and
 * phrases whose words mean another thing alone ("combien de temps" asks how long, not how much). Read
 * the same way in the FAQs and `about` as in the question.
 */
const IDIOMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?<![\p{L}])how\s+long(?![\p{L}])/giu, "duration"],
  [/(?<![\p{L}])(?:at\s+the\s+)?last[\s-]minute(?![\p{L}])/giu, "late"],
  [/(?<![\p{L}])(?:take|takes|taking|took)\s+off(?![\p{L}])/giu, "remove"],
  [/(?<![\p{L}])combien\s+de\s+temps(?![\p{L}])/giu, "durée"],
  [/(?<![\p{L}])cu[aá]nto\s+tiempo(?![\p{L}])/giu, "duración"],
  [/(?<![\p{L}])wie\s+lange?(?![\p{L}])/giu, "Dauer"],
  [/(?<![\p{L}])quanto\s+tempo(?![\p{L}])/giu, "duração"],
  [/(?<![\p{L}])set\s+(?:me|us|you|her|him|them)\s+back(?![\p{L}])/giu, "cost"],
  [/(?<![\p{L}])(?:bail|bailing|bailed)\s+on(?![\p{L}])/giu, "cancel"],
  [/(?<![\p{L}])no[\s-]show(?![\p{L}])/giu, "cancel"],
]

const plainText = (text: string): string =>
  IDIOMS.reduce((plain, [idiom, meaning]) => plain.replace(idiom, meaning), text)

const askedText = (question: string): string => {
  const plain = plainText(question)
  return WHERE_ARE_YOU.test(plain) ? `${plain} address` : plain
}
