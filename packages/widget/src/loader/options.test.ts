import { describe, expect, it } from "vitest"
import { languageOf } from "../shared/language.ts"
import { keyPrefix } from "../shared/visitor-memory.ts"
import { readOptions } from "./options.ts"

const page = { pageLanguage: "en-GB", direction: "ltr" as const, browserLanguage: "fr-FR" }

describe("the script tag's options", () => {
  it("reads every data-parley-* attribute of §15", () => {
    const options = readOptions(
      {
        parleyKey: " parley_abc.def ",
        parleyTitle: "Ask Harbour Dental",
        parleyColor: "#0f3d3e",
        parleyPosition: "LEFT",
        parleyOpen: "",
        parleyLocale: "es-MX",
      },
      page,
    )
    expect(options).toEqual({
      key: "parley_abc.def",
      title: "Ask Harbour Dental",
      color: "#0f3d3e",
      position: "left",
      startOpen: true,
      locale: "es-MX",
    })
  })

  it("defaults: bottom right (left on a right-to-left page), closed, the page's language", () => {
    expect(readOptions({ parleyKey: "k" }, page)).toMatchObject({
      position: "right",
      startOpen: false,
      locale: "en-GB",
    })
    expect(readOptions({ parleyKey: "k" }, { ...page, direction: "rtl" }).position).toBe("left")
    expect(readOptions({ parleyKey: "k" }, { ...page, pageLanguage: "" }).locale).toBe("fr-FR")
    expect(readOptions({ parleyKey: "k", parleyPosition: "middle" }, page).position).toBe("right")
    expect(readOptions({ parleyKey: "k", parleyOpen: "false" }, page).startOpen).toBe(false)
    expect(readOptions({}, page).key).toBe("")
  })

  it("speaks the assistant's languages and falls back to English", () => {
    expect(["pt-BR", "de", "FR_ca", "es", "ar", "", undefined].map(languageOf)).toEqual([
      "pt",
      "de",
      "fr",
      "es",
      "en",
      "en",
      "en",
    ])
  })

  it("remembers per key by the key's public prefix only", () => {
    expect(keyPrefix("parley_AbC123def456.secretpartchecksum")).toBe("AbC123def456")
    expect(keyPrefix("not a key")).toBe("default")
  })
})
