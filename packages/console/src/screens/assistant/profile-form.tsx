/**
 * What the assistant knows and how it speaks (§8): the business name, the languages it answers in
 * (the first is the default), a greeting, an "about" text, the FAQ and the hand-off message. A
 * member reads it; an administrator edits it.
 */
import { useRef, useState } from "preact/hooks"
import { type Answer, api, unwrap } from "../../api/client.ts"
import {
  CheckboxGroup,
  definedOnly,
  type FieldErrors,
  focusFirstInvalid,
  issueErrors,
  SelectField,
  TextField,
} from "../../ui/fields.tsx"
import { useAction } from "../../ui/hooks.ts"
import { ErrorNotice, StatusNotice } from "../../ui/notice.tsx"

type Profile = Answer<"/api/assistant/profile", "get">
type Language = Profile["languages"][number]

const LANGUAGES: ReadonlyArray<{ value: Language; label: string }> = [
  { value: "en", label: "English" },
  { value: "es", label: "Spanish" },
  { value: "de", label: "German" },
  { value: "fr", label: "French" },
  { value: "pt", label: "Portuguese" },
]

interface Faq {
  readonly question: string
  readonly answer: string
}

export const ProfileForm = ({
  profile,
  editable,
  onSaved,
}: {
  profile: Profile
  editable: boolean
  onSaved: () => void
}) => {
  const [businessName, setBusinessName] = useState(profile.businessName)
  const [languages, setLanguages] = useState<Array<Language>>([...profile.languages])
  const [defaultLanguage, setDefaultLanguage] = useState<Language>(profile.languages[0] ?? "en")
  const [greeting, setGreeting] = useState(profile.greeting ?? "")
  const [about, setAbout] = useState(profile.about ?? "")
  const [handoffMessage, setHandoffMessage] = useState(profile.handoffMessage ?? "")
  const [faqs, setFaqs] = useState<Array<Faq>>(profile.faqs.map(({ question, answer }) => ({ question, answer })))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [saved, setSaved] = useState(false)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const chosenDefault = languages.includes(defaultLanguage) ? defaultLanguage : (languages[0] ?? "en")
  const setFaq = (index: number, faq: Partial<Faq>) =>
    setFaqs((list) => list.map((item, i) => (i === index ? { ...item, ...faq } : item)))

  const submit = async (event: Event) => {
    event.preventDefault()
    setSaved(false)
    const incomplete = faqs.findIndex((f) => f.question.trim() === "" || f.answer.trim() === "")
    const found: FieldErrors = {
      businessName:
        businessName.trim() === ""
          ? "Give the business's name."
          : businessName.length > 100
            ? "At most 100 characters."
            : undefined,
      languages: languages.length === 0 ? "Choose at least one language." : undefined,
      about: about.length > 2000 ? "At most 2000 characters." : undefined,
      faqs:
        incomplete >= 0
          ? `Question ${incomplete + 1} needs both a question and an answer.`
          : faqs.some((f) => f.question.length > 1000 || f.answer.length > 1000)
            ? "Each question and answer is at most 1000 characters."
            : undefined,
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const ordered = [
      chosenDefault,
      ...LANGUAGES.map((l) => l.value).filter((l) => l !== chosenDefault && languages.includes(l)),
    ]
    const answer = await action.run(() =>
      unwrap(
        api.PUT("/api/assistant/profile", {
          body: {
            businessName: businessName.trim(),
            languages: ordered,
            ...(greeting.trim() === "" ? {} : { greeting: greeting.trim() }),
            ...(about.trim() === "" ? {} : { about: about.trim() }),
            ...(handoffMessage.trim() === "" ? {} : { handoffMessage: handoffMessage.trim() }),
            faqs: faqs.map((f) => ({ question: f.question.trim(), answer: f.answer.trim() })),
          },
        }),
      ),
    )
    if (answer === undefined) return
    setSaved(true)
    onSaved()
  }

  return (
    <form ref={form} onSubmit={submit} noValidate>
      {editable ? null : <p class="muted">Only an administrator can change the profile.</p>}
      <fieldset class="plain" disabled={!editable}>
        <legend class="visually-hidden">Profile</legend>
        <TextField
          label="Business name"
          value={businessName}
          onValue={setBusinessName}
          error={shown.businessName}
          required
        />
        <div class="row">
          <CheckboxGroup
            legend="Languages"
            options={LANGUAGES}
            selected={languages}
            onSelected={setLanguages}
            error={shown.languages}
            hint="The assistant answers a visitor in their language when it is one of these."
          />
          <SelectField
            label="Default language"
            value={chosenDefault}
            onValue={(value) => setDefaultLanguage(value as Language)}
            options={LANGUAGES.filter((l) => languages.includes(l.value))}
            hint="For visitors writing in any other language."
          />
        </div>
        <TextField label="Greeting" value={greeting} onValue={setGreeting} hint="The first thing the assistant says." />
        <TextField
          label="About the business"
          multiline
          rows={4}
          value={about}
          onValue={setAbout}
          error={shown.about}
          hint="What you do, where you are, what to know. Up to 2000 characters."
        />
        <TextField
          label="Hand-off message"
          multiline
          rows={2}
          value={handoffMessage}
          onValue={setHandoffMessage}
          hint="Said when the assistant cannot answer, offering a call back."
        />
        <fieldset class="field group" aria-describedby={shown.faqs === undefined ? undefined : "faqs-error"}>
          <legend>Frequently asked questions</legend>
          {shown.faqs === undefined ? null : (
            <p class="field-error" id="faqs-error">
              {shown.faqs}
            </p>
          )}
          {faqs.length === 0 ? <p class="muted">No questions yet: the assistant answers from the text above.</p> : null}
          <ol class="faqs">
            {faqs.map((faq, index) => (
              <li key={index}>
                <TextField
                  label={`Question ${index + 1}`}
                  value={faq.question}
                  onValue={(question) => setFaq(index, { question })}
                />
                <TextField
                  label={`Answer ${index + 1}`}
                  multiline
                  rows={2}
                  value={faq.answer}
                  onValue={(answer) => setFaq(index, { answer })}
                />
                {editable ? (
                  <button
                    type="button"
                    class="link"
                    onClick={() => setFaqs((list) => list.filter((_, i) => i !== index))}
                  >
                    Remove question {index + 1}
                  </button>
                ) : null}
              </li>
            ))}
          </ol>
          {editable && faqs.length < 200 ? (
            <button
              type="button"
              class="secondary"
              onClick={() => setFaqs((list) => [...list, { question: "", answer: "" }])}
            >
              Add a question
            </button>
          ) : null}
        </fieldset>
      </fieldset>
      {editable ? (
        // The outcome shows beside the button pressed, not at the top of a long form out of sight.
        <div class="form-end">
          <button type="submit" class="primary" disabled={action.pending}>
            {action.pending ? "Saving…" : "Save profile"}
          </button>
          <ErrorNotice error={action.error} title="Not saved." />
          {saved ? (
            <StatusNotice>The assistant's profile is saved; it answers with it from the next message.</StatusNotice>
          ) : null}
        </div>
      ) : null}
    </form>
  )
}
