/** A template's body as a recipient will read it: its `{{n}}` placeholders and their values. */

type Components = ReadonlyArray<Record<string, unknown>>

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g

export const bodyText = (components: Components): string => {
  const body = components.find((c) => String(c.type ?? "").toUpperCase() === "BODY")
  return typeof body?.text === "string" ? body.text : ""
}

/** How many values a send must give: the highest `{{n}}` of the body. */
export const variableCount = (components: Components): number => {
  let highest = 0
  for (const match of bodyText(components).matchAll(PLACEHOLDER)) highest = Math.max(highest, Number(match[1]))
  return highest
}

/** The body with each `{{n}}` replaced by its value (a missing one stays visible as `{{n}}`). */
export const renderBody = (components: Components, variables: ReadonlyArray<string>): string =>
  bodyText(components).replace(PLACEHOLDER, (whole, n: string) => variables[Number(n) - 1] || whole)
