import { BESIDE_REQUESTS } from "./beside-requests.ts"
import { CLASSES } from "./classes.ts"
import { DE } from "./de.ts"
import { DENTAL_CONVERSATIONS } from "./dental.ts"
import { EN } from "./en.ts"
import { ES } from "./es.ts"
import { FR } from "./fr.ts"
import { GREETINGS } from "./greetings.ts"
import { HOLDOUT } from "./holdout.ts"
import { MANNERS } from "./manners.ts"
import { PT } from "./pt.ts"
import { SERVICES } from "./services.ts"
import { SHORT_ANSWERS } from "./short-answers.ts"
import { TAKEN_BACK } from "./taken-back.ts"
import type { Conversation } from "./types.ts"
import { WALKS } from "./walks.ts"
import { WEEKDAY_TODAY } from "./weekday-today.ts"
import { WRITTEN_TIMES } from "./written-times.ts"

export const CORPUS: ReadonlyArray<Conversation> = [
  ...EN,
  ...ES,
  ...DE,
  ...FR,
  ...PT,
  ...HOLDOUT,
  ...DENTAL_CONVERSATIONS,
  ...CLASSES,
  ...WALKS,
  ...SHORT_ANSWERS,
  ...MANNERS,
  ...WRITTEN_TIMES,
  ...BESIDE_REQUESTS,
  ...SERVICES,
  ...GREETINGS,
  ...WEEKDAY_TODAY,
  ...TAKEN_BACK,
]
export * from "./types.ts"
export * from "./world.ts"
