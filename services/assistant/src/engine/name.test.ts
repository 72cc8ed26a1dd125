import { describe, expect, it } from "vitest"
import { extractName } from "./name.ts"

describe("extractName", () => {
  it.each([
    ["I'm Dana", "Dana"],
    ["Hi, I’m Dana and I want a demo", "Dana"],
    ["my name is Dana", "Dana"],
    ["My name is dana scully", "Dana"],
    ["my name is Dana Scully, call me", "Dana Scully"],
    ["My name's Priya", "Priya"],
    ["this is Dana from Acme", "Dana"],
    ["Hello, this is José García", "José García"],
    ["I am Zoë", "Zoë"],
    ["Dana here, can you call me?", "Dana"],
    ["name: Omar", "Omar"],
    ["you can call me Sam", "Sam"],
    ["I'm Mary-Jane Watson", "Mary-Jane Watson"],
  ])("takes the name from %j as %s", (text, name) => {
    expect(extractName(text)).toBe(name)
  })

  it.each([
    "I'm interested in your product",
    "I'm looking for a plumber",
    "I'm Interested in pricing",
    "I'm not sure",
    "this is urgent",
    "This is Monday's order",
    "I'm dana",
    "i am available tomorrow",
    "call me back",
    "call me tomorrow at 10",
    "call me ASAP",
    "It's great",
    "I'm from Berlin",
    "how much does it cost?",
  ])("takes no name from %j", (text) => {
    expect(extractName(text)).toBeUndefined()
  })
})
