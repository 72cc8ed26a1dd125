/**
 * Finds the name a visitor gives: "my name is Dana", "I'm Dana", "I am Dana Scully", "this is Dana",
 * "Dana here", "call me Dana".
 *
 * "I'm" and "this is" introduce far more than names ("I'm interested", "I'm looking for…", "this is
 * urgent"), so a name must pass two guards:
 * - a stop-list of words that follow those phrases in ordinary sentences (states, verbs, articles,
 *   days and months), checked case-insensitively;
 * - capitalisation: after "I'm", "I am", "this is" and "call me" the word must be written with a
 *   capital letter ("I'm dana" is not taken: lower case there is usually not a name). After the
 *   unambiguous "my name is" / "name's" lower case is accepted and capitalised.
 * A name is one to three words; each further word must itself be capitalised and not stop-listed.
 */

const STOP_WORDS = new Set(
  `a an the and or but not no yes so just also still very really only here there back home
  interested interesting looking wondering trying hoping planning thinking calling writing asking reaching
  contacting checking going coming getting having doing working waiting available free busy ready happy glad sorry
  sure fine good great ok okay well new old late early open closed away done after about from with in at on for to of by
  urgent important serious confused lost curious unable able afraid aware sick tired
  it this that what who how why when where which
  monday tuesday wednesday thursday friday saturday sunday today tomorrow tonight
  january february march april may june july august september october november december
  mr mrs ms dr sir madam customer client interested calling
  hi hello hey thanks thank please
  a1 me you he she we they my your our their his her`
    .split(/\s+/)
    .filter((word) => word !== ""),
)

/** Lead-ins, each with whether a lower-case name is acceptable after it. */
const LEAD_INS: ReadonlyArray<{ readonly pattern: RegExp; readonly lowercaseOk: boolean }> = [
  { pattern: /\bmy name(?:\s+is|'s|’s)\s+/gi, lowercaseOk: true },
  { pattern: /\bname(?:'s|’s|:)\s*/gi, lowercaseOk: true },
  { pattern: /\b(?:i'm|i’m|i am|im)\s+/gi, lowercaseOk: false },
  { pattern: /\bthis is\s+/gi, lowercaseOk: false },
  { pattern: /\bit's\s+|\bit’s\s+/gi, lowercaseOk: false },
  { pattern: /\bcall me\s+/gi, lowercaseOk: false },
]

const WORD = /^[\p{L}][\p{L}'’-]{0,39}/u

const isCapitalised = (word: string): boolean => {
  const first = word.charAt(0)
  return first !== first.toLowerCase() && first === first.toUpperCase()
}

const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1)

const acceptable = (word: string, lowercaseOk: boolean): boolean =>
  !STOP_WORDS.has(word.toLowerCase()) && (lowercaseOk || isCapitalised(word)) && !/^(?:[\p{Lu}]{2,})$/u.test(word)

/** Up to three name words at the start of `rest`. */
const nameAt = (rest: string, lowercaseOk: boolean): string | undefined => {
  const words: Array<string> = []
  let remaining = rest
  while (words.length < 3) {
    const match = WORD.exec(remaining)
    if (match === null) break
    // A possessive ("Monday's order") names a thing of someone, not the speaker.
    if (/['’]s$/i.test(match[0])) break
    const word = match[0].replace(/['’-]+$/, "")
    // Later words need a capital even after "my name is": "my name is dana and I…" stops at "and".
    if (!acceptable(word, words.length === 0 ? lowercaseOk : false)) break
    words.push(capitalise(word))
    remaining = remaining.slice(match[0].length)
    if (!/^ [\p{L}]/u.test(remaining)) break
    remaining = remaining.slice(1)
  }
  return words.length === 0 ? undefined : words.join(" ")
}

/** The name the visitor gives in `text`, or `undefined`. */
export const extractName = (text: string): string | undefined => {
  for (const { pattern, lowercaseOk } of LEAD_INS) {
    for (const match of text.matchAll(pattern)) {
      const found = nameAt(text.slice((match.index ?? 0) + match[0].length), lowercaseOk)
      if (found !== undefined) return found
    }
  }
  // "Dana here" at the start of a message.
  const here = /^\s*([\p{Lu}][\p{L}'’-]{1,39})\s+here\b/u.exec(text)
  if (here?.[1] !== undefined && !STOP_WORDS.has(here[1].toLowerCase())) return here[1]
  return undefined
}
