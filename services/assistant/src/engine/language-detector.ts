import ngrams from "./language-ngrams.json" with { type: "json" }

/**
 * eld, loaded with the five languages' n-grams only (`language-ngrams.json`, generated from eld's
 * "small" database by `npm run language-ngrams`): the whole database's 60 languages would cost
 * every Parley process ~45 MB of heap for scores the engine never reads. eld's entry points all
 * load a whole database of their own, so the detector is made with eld's own factory, as its
 * static entries make theirs (`createEld` + `loadData`, eld 2.1).
 */
interface Detection {
  readonly isReliable: () => boolean
  readonly getScores: () => Record<string, number>
}
interface EldFactory {
  readonly createEld: () => {
    readonly instance: { readonly detect: (text: string) => Detection }
    readonly loadData: (data: unknown) => string
  }
}

const factory = new URL("../languageDetector.js", import.meta.resolve("eld")) // eld/src/entries/dynamic.js
const { createEld } = (await import(factory.href)) as EldFactory
const { instance, loadData } = createEld()
if (!loadData(ngrams)) throw new Error("eld refused the n-gram subset in language-ngrams.json")

export const detectLanguage = (text: string): Detection => instance.detect(text)
