/** Opening hours as a person types them into the booking settings. */

/** `09:00–12:00, 13:00-17:00` → ranges, or the reason it is not that. Empty: closed. */
export const parseRanges = (text: string): Array<[string, string]> | string => {
  const ranges: Array<[string, string]> = []
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const match = /^([01]\d|2[0-3]):([0-5]\d)\s*[-–—]\s*([01]\d|2[0-3]):([0-5]\d)$/.exec(part)
    if (match === null) return `“${part}” is not a range like 09:00–17:00 (up to 23:59).`
    const from = `${match[1]}:${match[2]}`
    const to = `${match[3]}:${match[4]}`
    if (from >= to) return `In “${part}” the opening comes after the closing.`
    ranges.push([from, to])
  }
  return ranges
}
