/**
 * A template's body placeholders (`{{1}}`…`{{n}}`, the provider's positional variables): how many a
 * send must give, and the body as a recipient will read it.
 */

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g

const bodyText = (components: ReadonlyArray<Record<string, unknown>>): string => {
  const body = components.find((c) => String(c.type ?? "").toUpperCase() === "BODY")
  return typeof body?.text === "string" ? body.text : ""
}

/** The highest `{{n}}` of the body: `{{1}}`…`{{n}}` must each get a value (0 for none). */
export const bodyVariableCount = (components: ReadonlyArray<Record<string, unknown>>): number => {
  let highest = 0
  for (const match of bodyText(components).matchAll(PLACEHOLDER)) highest = Math.max(highest, Number(match[1]))
  return highest
}

/**
 * Why these values do not fit the template, naming the variable (`{{2}}`), or `undefined` when
 * they do: every placeholder needs a non-empty value (the provider refuses an empty parameter), and
 * a value beyond the last placeholder has nowhere to go.
 */
export const variablesProblem = (count: number, variables: ReadonlyArray<string>): string | undefined => {
  for (let n = 1; n <= count; n++) {
    if ((variables[n - 1] ?? "").trim() === "") return `{{${n}}} has no value`
  }
  if (variables.length > count) {
    return count === 0
      ? `the template has no variables, but ${variables.length} ${variables.length === 1 ? "was" : "were"} given`
      : `{{${count + 1}}} is not a variable of the template (it has ${count})`
  }
  return undefined
}
