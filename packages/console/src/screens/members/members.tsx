/**
 * Members (docs/contract.md §14, §2.4): who is in the organization; an administrator adds members,
 * changes their role and removes them; everyone changes their own password here.
 */
import { useRef, useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { may, session } from "../../session.ts"
import { ConfirmButton } from "../../ui/confirm.tsx"
import {
  definedOnly,
  type FieldErrors,
  focusFirstInvalid,
  issueErrors,
  SelectField,
  TextField,
} from "../../ui/fields.tsx"
import { useAction, useLoad } from "../../ui/hooks.ts"
import { EmptyState, ErrorNotice, Loading, StatusNotice } from "../../ui/notice.tsx"
import { Page, Section, TableScroll } from "../../ui/page.tsx"
import { ChangePassword } from "./change-password.tsx"

const AddMember = ({ onAdded }: { onAdded: (email: string) => void }) => {
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [role, setRole] = useState<"member" | "admin">("member")
  const [errors, setErrors] = useState<FieldErrors>({})
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const submit = async (event: Event) => {
    event.preventDefault()
    const found: FieldErrors = {
      email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? undefined : "Enter an email address.",
      password: password.length < 10 ? "At least 10 characters." : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const added = await action.run(() =>
      unwrap(api.POST("/api/org/members", { body: { email: email.trim(), password, role } })),
    )
    if (added === undefined) return
    setEmail("")
    setPassword("")
    onAdded(added.email)
  }
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <ErrorNotice error={action.error} />
      <div class="row row-top">
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          onValue={setEmail}
          error={shown.email}
          required
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
          error={shown.password}
          required
          hint="At least 10 characters. Give it to them in person; they sign in with it."
        />
      </div>
      <SelectField
        label="Role"
        value={role}
        onValue={(value) => setRole(value === "admin" ? "admin" : "member")}
        options={[
          { value: "member", label: "Member — reads leads, bookings, webhooks and the team" },
          { value: "admin", label: "Administrator — manages everything" },
        ]}
      />
      <button type="submit" class="primary" disabled={action.pending}>
        {action.pending ? "Adding…" : "Add member"}
      </button>
    </form>
  )
}

export const Members = () => {
  const members = useLoad(() => unwrap(api.GET("/api/org/members")), [])
  const remove = useAction()
  const changeRole = useAction()
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const me = session.value?.user.id
  const list = members.data?.data ?? []
  const onRemove = async (id: string, email: string) => {
    setNotice(undefined)
    const done = await remove.run(async () => {
      await unwrap(api.DELETE("/api/org/members/{id}", { params: { path: { id } } }))
      return true
    })
    if (done) {
      setNotice(`${email} was removed; their sessions have ended.`)
      members.reload()
    }
  }
  const onChangeRole = async (id: string, email: string, role: "admin" | "member") => {
    setNotice(undefined)
    const done = await changeRole.run(() =>
      unwrap(api.PATCH("/api/org/members/{id}", { params: { path: { id } }, body: { role } })),
    )
    if (done === undefined) return
    setNotice(
      role === "admin"
        ? `${email} is now an administrator.`
        : `${email} is now a member: they read, and no longer manage.`,
    )
    members.reload()
  }
  const manages = may("PATCH /api/org/members/{id}") || may("DELETE /api/org/members/{id}")
  return (
    <Page title="Members" intro="The people who can sign in to this console for your organization.">
      {notice === undefined ? null : <StatusNotice>{notice}</StatusNotice>}
      <ErrorNotice error={remove.error} title="Not removed." />
      <ErrorNotice error={changeRole.error} title="The role was not changed." />
      <Section title="Team">
        <ErrorNotice error={members.error} />
        {members.data === undefined && members.loading ? (
          <Loading what="members" />
        ) : list.length === 0 ? (
          <EmptyState title="No members." />
        ) : (
          <TableScroll label="Members">
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  {manages ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {list.map((member) => (
                  <tr key={member.id}>
                    <th scope="row">
                      {member.email}
                      {member.id === me ? <span class="muted"> (you)</span> : null}
                    </th>
                    <td>{member.role === "admin" ? "Administrator" : "Member"}</td>
                    {manages ? (
                      <td>
                        {member.id === me ? (
                          <span class="muted">Another administrator can change you.</span>
                        ) : (
                          <span class="actions-inline">
                            {may("PATCH /api/org/members/{id}") ? (
                              member.role === "admin" ? (
                                <ConfirmButton
                                  label="Make member"
                                  accessibleLabel={`Make member ${member.email}`}
                                  title={`Make ${member.email} a member?`}
                                  confirmLabel="Make member"
                                  onConfirm={() => onChangeRole(member.id, member.email, "member")}
                                >
                                  <p>
                                    They keep reading leads, bookings, webhooks and the team, and can no longer manage
                                    keys, webhooks, members or the assistant. It applies from their next click.
                                  </p>
                                </ConfirmButton>
                              ) : (
                                <button
                                  type="button"
                                  class="secondary"
                                  aria-label={`Make administrator ${member.email}`}
                                  disabled={changeRole.pending}
                                  onClick={() => onChangeRole(member.id, member.email, "admin")}
                                >
                                  Make administrator
                                </button>
                              )
                            ) : null}
                            {may("DELETE /api/org/members/{id}") ? (
                              <ConfirmButton
                                label="Remove"
                                accessibleLabel={`Remove ${member.email}`}
                                title={`Remove ${member.email}?`}
                                confirmLabel="Remove member"
                                danger
                                onConfirm={() => onRemove(member.id, member.email)}
                              >
                                <p>They can no longer sign in, and their open sessions end now.</p>
                              </ConfirmButton>
                            ) : null}
                          </span>
                        )}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Section>
      <Section title="Your password">
        <ChangePassword />
      </Section>
      {may("POST /api/org/members") ? (
        <Section title="Add a member">
          <AddMember
            onAdded={(email) => {
              setNotice(`${email} can now sign in.`)
              members.reload()
            }}
          />
        </Section>
      ) : null}
    </Page>
  )
}
