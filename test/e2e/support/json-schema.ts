/**
 * The subset of JSON Schema that deploy/helm/parley/values.schema.json uses (type, required,
 * properties, additionalProperties, enum, pattern, minimum, maximum, items, minItems), so the test
 * can check values.yaml against it without a Helm binary. Returns every violation with its path.
 */
export interface SchemaNode {
  readonly type?: string | ReadonlyArray<string>
  readonly required?: ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, SchemaNode>>
  readonly additionalProperties?: boolean
  readonly enum?: ReadonlyArray<unknown>
  readonly pattern?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly items?: SchemaNode
  readonly minItems?: number
}

const typeOf = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number"
  return typeof value
}

const matchesType = (value: unknown, type: string): boolean => {
  const actual = typeOf(value)
  return actual === type || (type === "number" && actual === "integer")
}

export const validate = (schema: SchemaNode, value: unknown, path = "$"): Array<string> => {
  const errors: Array<string> = []
  if (schema.type !== undefined) {
    const types = typeof schema.type === "string" ? [schema.type] : schema.type
    if (!types.some((type) => matchesType(value, type))) {
      return [`${path}: expected ${types.join(" or ")}, got ${typeOf(value)}`]
    }
  }
  if (schema.enum !== undefined && !schema.enum.includes(value))
    errors.push(`${path}: not one of ${schema.enum.join(", ")}`)
  if (typeof value === "string" && schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) {
    errors.push(`${path}: does not match ${schema.pattern}`)
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below ${schema.minimum}`)
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above ${schema.maximum}`)
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(`${path}: fewer than ${schema.minItems} items`)
    if (schema.items !== undefined) {
      const items = schema.items
      value.forEach((item, index) => {
        errors.push(...validate(items, item, `${path}[${index}]`))
      })
    }
  }
  if (typeOf(value) === "object") {
    const record = value as Record<string, unknown>
    for (const name of schema.required ?? []) if (!(name in record)) errors.push(`${path}.${name}: required`)
    for (const [name, child] of Object.entries(record)) {
      const property = schema.properties?.[name]
      if (property !== undefined) errors.push(...validate(property, child, `${path}.${name}`))
      else if (schema.additionalProperties === false) errors.push(`${path}.${name}: not allowed`)
    }
  }
  return errors
}
