import type { Language } from "../text.ts"
import type { Catalog } from "./catalog.ts"
import { de } from "./de.ts"
import { en } from "./en.ts"
import { es } from "./es.ts"
import { fr } from "./fr.ts"
import { pt } from "./pt.ts"

export const CATALOGS: Readonly<Record<Language, Catalog>> = { en, es, de, fr, pt }
export type { Catalog } from "./catalog.ts"
export { type Formats, formatsFor } from "./format.ts"
