/**
 * Why a message was not sent, as a person reads it. The API keeps the provider's own answer
 * (`provider answered 400 (code 131026): (#131026) Message undeliverable`, `opted_out`); the
 * console says what it means and keeps the code for anyone who looks it up.
 */
const KNOWN: Readonly<Record<number, string>> = {
  131026: "Undeliverable: the number cannot receive messages",
  131047: "Not sent: more than 24 hours since the customer last wrote, so only a template may be sent",
  131049: "Not delivered: the provider held it back to keep engagement healthy",
  131050: "Not sent: the customer stopped marketing messages",
  132000: "Not sent: the template's values do not match its variables",
  132001: "Not sent: the template does not exist in that language",
}

export const sendErrorInWords = (error: string): string => {
  if (error === "opted_out") return "Not sent: the customer opted out of messages"
  const answered = /^provider answered (\d{3})(?: \(code (\d+)\))?/.exec(error)
  if (answered === null) return error
  const [, status, code] = answered
  if (code === undefined) return `Not sent: the provider answered ${status}`
  const known = KNOWN[Number(code)]
  return known === undefined ? `Not sent: the provider refused it (code ${code})` : `${known} (${code})`
}
