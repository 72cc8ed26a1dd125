/**
 * A secret the API returns once (a key, a webhook secret, a bridge token): shown in full with a
 * copy button and the warning that it cannot be shown again. Copying uses the Clipboard API; where
 * a browser refuses it (an http origin other than localhost), the text is selected instead so that
 * Ctrl+C copies it.
 */
import type { ComponentChildren } from "preact"
import { useId, useLayoutEffect, useRef, useState } from "preact/hooks"

export const CopyField = ({
  label,
  value,
  children,
}: {
  label: string
  value: string
  children?: ComponentChildren
}) => {
  const id = useId()
  const field = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState<"yes" | "select" | undefined>(undefined)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied("yes")
    } catch {
      field.current?.select()
      setCopied("select")
    }
  }
  return (
    <div class="secret">
      <label for={id}>{label}</label>
      <div class="secret-row">
        <input id={id} ref={field} class="mono" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" class="secondary" onClick={copy}>
          Copy <span class="visually-hidden">{label}</span>
        </button>
      </div>
      <p class="hint" role="status">
        {copied === "yes"
          ? "Copied to the clipboard."
          : copied === "select"
            ? "Selected: press Ctrl+C (⌘C) to copy."
            : ""}
      </p>
      {children}
    </div>
  )
}

/**
 * How Parley keeps a secret it shows once, in the warning's words: a key's SHA-256 digest only
 * (docs/contract.md §2.3), or a webhook secret or bridge token encrypted, since Parley signs with it (§5).
 */
const keptInWords = {
  digest: "Parley keeps only a digest of it, enough to recognise it, and cannot show it again.",
  encrypted: "Parley keeps it encrypted, to sign with it, and never shows it again.",
} as const

/**
 * The box around secrets shown once, with the warning first. It appears where the page starts
 * while the button that made it may be far below, so on appearing it takes the focus on its
 * heading and scrolls into view: a person sees (and a screen reader says) what happened.
 */
export const ShownOnce = ({
  title,
  kept,
  children,
  onDone,
}: {
  title: string
  kept: keyof typeof keptInWords
  children: ComponentChildren
  onDone: () => void
}) => {
  const box = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  useLayoutEffect(() => {
    heading.current?.focus({ preventScroll: true })
    box.current?.scrollIntoView({ block: "start" })
  }, [])
  return (
    <section ref={box} class="panel shown-once" aria-label={title}>
      <h2 ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p class="warning">
        <strong>This is the only time it is shown.</strong> Copy it now and keep it somewhere safe: {keptInWords[kept]}
      </p>
      {children}
      <button type="button" class="primary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  )
}

/** A webhook's secret in the forms §5 gives: as registered, and `whsec_…` for Standard Webhooks libraries. */
export const SecretForms = ({ secret, signingSecret }: { secret: string; signingSecret: string }) => (
  <>
    <CopyField label="Secret (X-Service-Signature)" value={secret} />
    <CopyField label="Signing secret (Standard Webhooks)" value={signingSecret} />
  </>
)
