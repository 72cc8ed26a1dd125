/** The checks §5 makes on a webhook URL that a browser can make too (reachability is the server's). */
export const webhookUrlProblem = (url: string): string | undefined => {
  const text = url.trim()
  if (text === "") return "Enter the URL that receives the events."
  if (text.length > 2048) return "At most 2048 characters."
  let parsed: URL
  try {
    parsed = new URL(text)
  } catch {
    return "Enter an absolute URL, like https://example.com/parley/events."
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "The URL must start with http:// or https://."
  if (parsed.username !== "" || parsed.password !== "") return "Leave credentials out of the URL."
  return undefined
}

/** A new webhook secret: 32 random bytes, standard base64 (what §5 accepts and generates). */
export const newWebhookSecret = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}
