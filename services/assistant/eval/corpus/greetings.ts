import { type Conversation, conversation, lead } from "./types.ts"

/**
 * A greeting with a question mark (a contract-only tester's finding: "Hello again?" was answered "I
 * don't know the answer to that" with a callback offer, and the Inbox waited for a person): a hello,
 * or a "are you there?", answered as one — what they need asked — in the five languages; what
 * follows it goes on as usual.
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")
const CALL = "CALLBACK_REQUESTED"

export const GREETINGS: ReadonlyArray<Conversation> = [
  en(
    "greeting-hello-again",
    "general",
    [{ say: "Hello again?", says: ["what you need"], never: ["don't know"] }],
    null,
  ),
  en(
    "greeting-anyone-there",
    "general",
    [
      { say: "anyone there? 👋", says: ["what you need"], never: ["don't know", "call you back?"] },
      "can someone call me back on 415 555 0192? I'm Tess",
    ],
    lead("14155550192", "Tess", CALL),
  ),
  es("greeting-hola", "general", [{ say: "hola?", says: ["qué necesitas"], never: ["no sé"] }], null),
  es(
    "greeting-hay-alguien",
    "general",
    [{ say: "¿Hola? ¿Hay alguien?", says: ["qué necesitas"], never: ["no sé"] }],
    null,
  ),
  de(
    "greeting-jemand-da",
    "general",
    [{ say: "Hallo, ist da jemand?", says: ["was Sie brauchen"], never: ["nicht beantworten"] }],
    null,
  ),
  fr(
    "greeting-bonjour",
    "general",
    [{ say: "bonjour ?", says: ["ce dont vous avez besoin"], never: ["ne connais pas"] }],
    null,
  ),
  pt(
    "greeting-tem-alguem",
    "general",
    [{ say: "oi, tem alguém aí?", says: ["do que você precisa"], never: ["não sei"] }],
    null,
  ),
]
