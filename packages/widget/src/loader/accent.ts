/**
 * The accent colour (`data-parley-color`, any CSS colour) and the text colour drawn on it, chosen for
 * contrast (WCAG relative luminance), so that a pale brand colour gets dark text and stays readable.
 */

/** The default accent, #1f5fbf: white text on it has a contrast of 6.1:1. */
export const DEFAULT_ACCENT_RGB: readonly [number, number, number] = [31, 95, 191]
const LIGHT_TEXT = "#ffffff"
const DARK_TEXT = "#111111"

const channel = (value: number): number => {
  const c = value / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** WCAG 2 relative luminance of an sRGB colour (0–255 channels). */
export const luminance = ([r, g, b]: readonly [number, number, number]): number =>
  0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)

const contrast = (a: number, b: number): number => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)

/** White or near-black, whichever contrasts more with the accent. */
export const textOn = (rgb: readonly [number, number, number]): string => {
  const l = luminance(rgb)
  return contrast(l, 1) >= contrast(l, luminance([17, 17, 17])) ? LIGHT_TEXT : DARK_TEXT
}

type Rgb = readonly [number, number, number]

/**
 * The accent and its text colour with at least 4.5:1 between them (WCAG AA for text). Mid-tones
 * reach at most about 4.35:1 with either white or near-black; those are darkened a little, in 5 %
 * steps, until white text on them is readable. Any other colour is kept exactly.
 */
export const readableAccent = (rgb: Rgb): { readonly accent: Rgb; readonly text: string } => {
  let accent = rgb
  for (let step = 0; step < 20; step++) {
    const text = textOn(accent)
    const l = luminance(accent)
    if (contrast(l, text === LIGHT_TEXT ? 1 : luminance([17, 17, 17])) >= 4.5) return { accent, text }
    accent = [accent[0] * 0.95, accent[1] * 0.95, accent[2] * 0.95].map(Math.round) as unknown as Rgb
  }
  return { accent: [0, 0, 0], text: LIGHT_TEXT }
}

/**
 * The accent as sRGB, by painting one pixel with it on white: this reads any colour syntax the browser
 * knows (names, hex, `rgb()`, `hsl()`, `oklch()`, with alpha) without a parser of our own. A value the
 * canvas refuses (not a colour, `var(…)`) leaves `fillStyle` as it was, whatever it was: `undefined`.
 */
const rgbOf = (color: string): [number, number, number] | undefined => {
  const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })
  if (context === null) return undefined
  context.fillStyle = "#000"
  context.fillStyle = color
  const afterBlack = context.fillStyle
  context.fillStyle = "#fff"
  context.fillStyle = color
  if (context.fillStyle !== afterBlack) return undefined
  context.fillStyle = "#fff"
  context.fillRect(0, 0, 1, 1)
  context.fillStyle = color
  context.fillRect(0, 0, 1, 1)
  const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data
  return [r, g, b]
}

/**
 * The theme: the accent and its text colour as custom properties of the widget's host. The accent is
 * written back as the painted `rgb()`, never as the attribute's text, so nothing from the page reaches
 * the stylesheet but three numbers.
 */
export const themeCss = (color: string | undefined): string => {
  const { accent, text } = readableAccent((color === undefined ? undefined : rgbOf(color)) ?? DEFAULT_ACCENT_RGB)
  return `:host{--parley-accent:rgb(${accent.join(" ")})!important;--parley-on-accent:${text}!important}`
}
