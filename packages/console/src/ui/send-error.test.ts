import { describe, expect, it } from "vitest"
import { sendErrorInWords } from "./send-error.ts"

describe("sendErrorInWords", () => {
  it("says what the provider's known codes mean and keeps the code", () => {
    expect(sendErrorInWords("provider answered 400 (code 131026): (#131026) Message undeliverable")).toBe(
      "Undeliverable: the number cannot receive messages (131026)",
    )
    expect(sendErrorInWords("opted_out")).toBe("Not sent: the customer opted out of messages")
  })

  it("falls back to a sentence that keeps an unknown code or the HTTP status, and leaves other words alone", () => {
    expect(sendErrorInWords("provider answered 400 (code 100): (#100) Invalid parameter")).toBe(
      "Not sent: the provider refused it (code 100)",
    )
    expect(sendErrorInWords("provider answered 503")).toBe("Not sent: the provider answered 503")
    expect(sendErrorInWords("outcome unknown: the worker stopped while sending")).toBe(
      "outcome unknown: the worker stopped while sending",
    )
  })
})
