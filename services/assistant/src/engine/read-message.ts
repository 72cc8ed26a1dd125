import { detectIntents, type Intents } from "./intent.ts"
import { extractName } from "./name.ts"
import { extractPhone } from "./phone.ts"
import { findWhen, type NamedWhen } from "./when.ts"

/** Everything the deterministic engine reads from one message. Pure. */
export interface MessageFacts {
  readonly phone: string | undefined
  readonly name: string | undefined
  readonly intents: Intents
  readonly when: NamedWhen
  /** One of the organization's services named in the message. */
  readonly service: string | undefined
  readonly greeting: boolean
}

export const readMessage = (text: string, today: string, services: ReadonlyArray<string>): MessageFacts => {
  const lower = text.toLowerCase()
  return {
    phone: extractPhone(text),
    name: extractName(text),
    intents: detectIntents(text),
    when: findWhen(text, today),
    service: services.find((service) => lower.includes(service.toLowerCase())),
    greeting: /^\s*(?:hi|hello|hey|good\s+(?:morning|afternoon|evening)|hallo|hola)\b/i.test(text),
  }
}
