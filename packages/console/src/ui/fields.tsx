/**
 * Form controls with a visible label, an optional hint and an error tied to the control
 * (`aria-describedby`, `aria-invalid`), so a person with a screen reader hears what to fix.
 */
import type { ComponentChildren } from "preact"
import { useId } from "preact/hooks"

export type FieldErrors = Readonly<Record<string, string | undefined>>

interface Described {
  readonly hint?: ComponentChildren
  readonly error?: string | undefined
}

const describedBy = (id: string, { hint, error }: Described) =>
  [hint === undefined ? "" : `${id}-hint`, error === undefined ? "" : `${id}-error`].filter(Boolean).join(" ") ||
  undefined

const Help = ({ id, hint, error }: Described & { id: string }) => (
  <>
    {hint === undefined ? null : (
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
    )}
    {error === undefined ? null : (
      <p class="field-error" id={`${id}-error`}>
        {error}
      </p>
    )}
  </>
)

export interface TextFieldProps extends Described {
  readonly label: string
  readonly value: string
  readonly onValue: (value: string) => void
  readonly name?: string
  readonly type?:
    | "text"
    | "email"
    | "password"
    | "url"
    | "tel"
    | "date"
    | "datetime-local"
    | "time"
    | "number"
    | "search"
  readonly required?: boolean
  readonly multiline?: boolean
  readonly rows?: number
  readonly autoComplete?: string
  readonly placeholder?: string
  readonly min?: number | string
  readonly max?: number | string
  readonly inputMode?: "numeric" | "tel" | "email" | "url" | "text"
  readonly spellcheck?: boolean
}

export const TextField = (props: TextFieldProps) => {
  const id = useId()
  const common = {
    id,
    name: props.name,
    value: props.value,
    required: props.required,
    placeholder: props.placeholder,
    spellcheck: props.spellcheck,
    "aria-invalid": props.error === undefined ? undefined : true,
    "aria-describedby": describedBy(id, props),
    onInput: (event: Event) => props.onValue((event.currentTarget as HTMLInputElement).value),
  }
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {props.required ? <span class="required"> (required)</span> : null}
      </label>
      {props.multiline ? (
        <textarea {...common} rows={props.rows ?? 4} />
      ) : (
        <input
          {...common}
          // One type of the union at a time; Preact's types narrow attributes by `type`.
          type={(props.type ?? "text") as "text"}
          autoComplete={props.autoComplete}
          min={props.min}
          max={props.max}
          inputMode={props.inputMode}
        />
      )}
      <Help id={id} hint={props.hint} error={props.error} />
    </div>
  )
}

export interface SelectFieldProps extends Described {
  readonly label: string
  readonly value: string
  readonly onValue: (value: string) => void
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string }>
  readonly required?: boolean
}

export const SelectField = (props: SelectFieldProps) => {
  const id = useId()
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        required={props.required}
        aria-invalid={props.error === undefined ? undefined : true}
        aria-describedby={describedBy(id, props)}
        onChange={(event) => props.onValue((event.currentTarget as HTMLSelectElement).value)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Help id={id} hint={props.hint} error={props.error} />
    </div>
  )
}

export interface CheckboxProps {
  readonly label: ComponentChildren
  readonly checked: boolean
  readonly onChecked: (checked: boolean) => void
  readonly hint?: ComponentChildren
  readonly disabled?: boolean
}

export const Checkbox = ({ label, checked, onChecked, hint, disabled }: CheckboxProps) => {
  const id = useId()
  return (
    <div class="check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        onChange={(event) => onChecked((event.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>{label}</label>
      {hint === undefined ? null : (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  )
}

/** A group of checkboxes under one legend (scopes, events). */
export const CheckboxGroup = <T extends string>(props: {
  readonly legend: string
  readonly options: ReadonlyArray<{
    readonly value: T
    readonly label: ComponentChildren
    readonly hint?: ComponentChildren
  }>
  readonly selected: ReadonlyArray<T>
  readonly onSelected: (selected: Array<T>) => void
  readonly hint?: ComponentChildren
  readonly error?: string | undefined
}) => {
  const id = useId()
  return (
    <fieldset
      class="field group"
      aria-describedby={describedBy(id, props)}
      aria-invalid={props.error === undefined ? undefined : true}
    >
      <legend>{props.legend}</legend>
      <Help id={id} hint={props.hint} error={props.error} />
      {props.options.map((option) => (
        <Checkbox
          key={option.value}
          label={option.label}
          hint={option.hint}
          checked={props.selected.includes(option.value)}
          onChecked={(checked) =>
            props.onSelected(
              checked
                ? [...props.selected.filter((v) => v !== option.value), option.value]
                : props.selected.filter((v) => v !== option.value),
            )
          }
        />
      ))}
    </fieldset>
  )
}

/**
 * Focuses the first control marked invalid in `form` (after validation refused a submit), so the
 * keyboard lands where the work is.
 */
export const focusFirstInvalid = (form: HTMLFormElement | null): void => {
  setTimeout(() => form?.querySelector<HTMLElement>("[aria-invalid='true'] input, [aria-invalid='true']")?.focus(), 0)
}

/** The field errors of an API refusal (`issues[].path` like `allowedOrigins[1]` → `allowedOrigins`). */
export const issueErrors = (issues: ReadonlyArray<{ path: string; message: string }>): Record<string, string> => {
  const errors: Record<string, string> = {}
  for (const issue of issues) {
    const field = issue.path.split(/[.[]/)[0] ?? ""
    if (field !== "" && errors[field] === undefined) errors[field] = issue.message
  }
  return errors
}

/** `errors` without its `undefined` entries, to lay over the API's. */
export const definedOnly = (errors: FieldErrors): Record<string, string> =>
  Object.fromEntries(Object.entries(errors).filter((entry): entry is [string, string] => entry[1] !== undefined))
