/**
 * A customer asking for a person rather than the assistant (docs/contract.md §17), in the five languages
 * the assistant reads, and the assistant's answer to it. Pure. Asking to be called back is not
 * this (that is a callback lead); asking to talk to someone, a human, an agent is.
 */
import { fold, isLanguage, type Language, type PerLanguage } from "../engine/text.ts"

const WHO = {
  en: "(?:a |an |the |some |one of )?(?:real |actual |live )?(?:human|person|people|someone|somebody|agent|representative|rep|operator|staff|member of (?:the |your )?staff|someone from (?:the |your )?team|team member)",
  es: "(?:con |a )?(?:un |una |el |la |algun |alguna )?(?:humano|humana|persona|persona real|alguien|agente|asesor|asesora|operador|operadora|empleado|empleada|encargado|encargada)",
  de: "(?:mit |an )?(?:einem |einer |einen |eine |den |die )?(?:echten |richtigen )?(?:mensch|menschen|person|mitarbeiter|mitarbeiterin|jemandem|jemand|berater|beraterin|kundenberater|ansprechpartner)",
  fr: "(?:a |avec )?(?:un |une |le |la |quelqu'un|quelqu un)?\\s*(?:vrai |vraie |veritable )?(?:humain|humaine|personne|conseiller|conseillere|agent|operateur|operatrice|employe|quelqu'un|quelqu un)?",
  pt: "(?:com |a )?(?:um |uma |o |a |algum |alguma )?(?:humano|humana|pessoa|pessoa real|alguem|atendente|agente|operador|operadora|funcionario|funcionaria)",
} as const satisfies PerLanguage<string>

/** "talk to / speak with …", "I want …", "… please", and each language's set phrases. */
const PATTERNS: ReadonlyArray<RegExp> = [
  new RegExp(`\\b(?:talk|speak|chat)(?:ing)? (?:to|with) ${WHO.en}\\b`),
  new RegExp(`\\b(?:want|need|get me|give me|connect me (?:to|with)|put me through to|transfer me to)\\s+${WHO.en}\\b`),
  /\b(?:human|real person|live agent|actual person|a person) please\b/,
  /^(?:human|agent|operator|representative|real person|live agent)[.!?]*$/,
  /\bare you (?:a )?(?:bot|robot)\b.*\b(?:human|person)\b/,
  new RegExp(`\\b(?:hablar|charlar|comunicarme|contactar)\\s+${WHO.es}\\b`),
  new RegExp(`\\b(?:quiero|necesito|pasame con|paseme con|comunicame con)\\s+${WHO.es}\\b`),
  /\batencion (?:humana|personal)\b/,
  new RegExp(`\\b${WHO.de}\\s+(?:sprechen|reden|verbinden|chatten)\\b`),
  /\b(?:verbinden sie mich|ich will|ich mochte|ich brauche)\b.*\b(?:mensch|menschen|mitarbeiter|mitarbeiterin|person)\b/,
  /\b(?:echten|richtigen) menschen\b/,
  new RegExp(`\\bparler\\s+${WHO.fr}`),
  /\b(?:je veux|je voudrais|j'aimerais|passez-moi|mettez-moi en relation avec)\b.*\b(?:humain|personne|conseiller|conseillere|agent|operateur)\b/,
  /\bun (?:vrai|veritable) humain\b/,
  new RegExp(`\\b(?:falar|conversar)\\s+${WHO.pt}\\b`),
  new RegExp(`\\b(?:quero|preciso de|me passa para|me transfere para)\\s+${WHO.pt}\\b`),
  /\batendimento humano\b/,
]

/** Whether the message asks for a person of the business. */
export const asksForPerson = (text: string): boolean => {
  const folded = fold(text).replace(/\s+/g, " ").trim()
  return PATTERNS.some((pattern) => {
    const match = pattern.exec(folded)
    // A French "parler" alone, or "parler à" with nobody named, is not asking for someone.
    return match !== null && !/^parler\s*(?:a|avec)?\s*$/.test(match[0].trim())
  })
}

const HANDED_OFF: PerLanguage<string> = {
  en: "I've let the team know — a person will answer you here shortly.",
  es: "He avisado al equipo: una persona te responderá aquí en breve.",
  de: "Ich habe das Team informiert – gleich antwortet Ihnen hier ein Mensch.",
  fr: "J'ai prévenu l'équipe : une personne va vous répondre ici sous peu.",
  pt: "Avisei a equipe: uma pessoa vai responder você aqui em breve.",
}

/** The assistant's answer to a customer who asked for a person, in the conversation's language. */
export const handedOffReply = (language: string | undefined): string =>
  HANDED_OFF[language !== undefined && isLanguage(language) ? language : ("en" satisfies Language)]
