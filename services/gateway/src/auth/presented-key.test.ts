import { describe, expect, it } from "vitest"
import { headerKey, publicKey } from "./presented-key.ts"

const query = (q: string) => new URLSearchParams(q)

describe("the key a request presents", () => {
  it("prefers X-API-Key, then Bearer, then the body, then the query", () => {
    const all = {
      headers: { "x-api-key": "h", authorization: "Bearer b" },
      body: { apiKey: "j" },
      query: query("apiKey=q"),
    }
    expect(publicKey(all)).toEqual({ form: "header", value: "h" })
    expect(publicKey({ ...all, headers: { authorization: "Bearer b" } })).toEqual({ form: "bearer", value: "b" })
    expect(publicKey({ ...all, headers: {} })).toEqual({ form: "body", value: "j" })
    expect(publicKey({ ...all, headers: {}, body: {} })).toEqual({ form: "query", value: "q" })
    expect(publicKey({ headers: {}, body: undefined, query: undefined })).toBeUndefined()
  })

  it("uses the first form present even when it is empty or malformed", () => {
    expect(publicKey({ headers: { "x-api-key": "" }, body: { apiKey: "good" }, query: undefined })).toEqual({
      form: "header",
      value: "",
    })
    expect(publicKey({ headers: { authorization: "Bearer" }, body: { apiKey: "good" }, query: undefined })).toEqual({
      form: "bearer",
      value: undefined,
    })
    expect(publicKey({ headers: {}, body: { apiKey: 42 }, query: query("apiKey=good") })).toEqual({
      form: "body",
      value: undefined,
    })
  })

  it("does not take another authorization scheme for a bearer key", () => {
    expect(publicKey({ headers: { authorization: "Basic abc" }, body: { apiKey: "j" }, query: undefined })).toEqual({
      form: "body",
      value: "j",
    })
  })

  it("reads only X-API-Key on the private API", () => {
    expect(headerKey({ authorization: "Bearer b" })).toBeUndefined()
    expect(headerKey({ "x-api-key": " k " })).toEqual({ form: "header", value: "k" })
  })
})
