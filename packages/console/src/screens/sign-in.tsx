/** Sign in with an email and a password (docs/contract.md §2.4); the session cookie does the rest. */
import { useEffect, useRef, useState } from "preact/hooks"
import { signedOutReason, signIn } from "../session.ts"
import { type FieldErrors, focusFirstInvalid, TextField } from "../ui/fields.tsx"
import { useAction } from "../ui/hooks.ts"
import { ErrorNotice, StatusNotice } from "../ui/notice.tsx"

export const SignIn = () => {
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [errors, setErrors] = useState<FieldErrors>({})
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = "Sign in · Parley console"
    heading.current?.focus()
  }, [])

  const submit = async (event: Event) => {
    event.preventDefault()
    const found: FieldErrors = {
      email: email.trim() === "" ? "Enter your email address." : undefined,
      password: password === "" ? "Enter your password." : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    await action.run(() => signIn(email.trim(), password))
  }

  return (
    <main id="main" class="sign-in">
      <div class="sign-in-card">
        <p class="brand">Parley</p>
        <h1 ref={heading} tabIndex={-1}>
          Sign in to the console
        </h1>
        {signedOutReason.value === undefined ? null : <StatusNotice>{signedOutReason.value}</StatusNotice>}
        <ErrorNotice error={action.error} />
        {action.error?.code === "origin_not_allowed" ? (
          <p class="warning">
            Parley accepts sign-ins only from its public address (<code>PARLEY_PUBLIC_URL</code>), and this page was
            opened at <code>{location.origin}</code>. Open the console at the address <code>npm start</code> printed.
          </p>
        ) : null}
        <form ref={form} onSubmit={submit} noValidate>
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            onValue={setEmail}
            error={errors.email}
            required
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
            error={errors.password}
            required
          />
          <button type="submit" class="primary" disabled={action.pending}>
            {action.pending ? "Signing in…" : "Sign in"}
          </button>
        </form>
        <p class="hint">
          New here? <code>npm start</code> printed a demo administrator's login on its first start. The API is
          documented at <a href="/docs">/docs</a>.
        </p>
      </div>
    </main>
  )
}
