import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectAccessible, expectNothingCutOff, launchChromium, layoutProblems, watchPage } from "./index.ts"

/** A page server on loopback with a strict CSP: `/good` behaves, `/bad` breaks every rule. */
const pages: Record<string, string> = {
  "/good": `<!doctype html><html lang="en"><title>Good</title><main><h1>Hello</h1>
    <label for="n">Name</label><input id="n"><button type="button">Send</button></main></html>`,
  "/bad": `<!doctype html><html lang="en"><title>Bad</title><main><h1>Bad</h1>
    <input id="n"><script>document.title = "inline ran"</script>
    <img src="http://198.51.100.7/pixel.png" alt=""></main></html>`,
  "/favicon.ico": "",
}

/** A page whose every way of cutting content off the layout check must find (inline styles: no CSP here). */
const cramped = `<!doctype html><html lang="en"><title>Cramped</title><main style="width:300px"><h1>Cramped</h1>
    <label for="h">Monday</label><input id="h" style="width:5em" value="09:00–17:00, 18:00–22:00">
    <div class="scroll" style="overflow-x:auto"><table><tr><td style="white-space:nowrap">${"wide ".repeat(40)}</td></tr></table></div>
    <p style="width:40px"><code style="overflow-wrap:anywhere">lead.created</code></p>
    <p style="white-space:nowrap">${"a sentence that does not wrap ".repeat(5)}</p></main></html>`

describe("the browser-test setup", () => {
  let browser: Browser
  let server: Server
  let origin = ""

  beforeAll(async () => {
    browser = await launchChromium()
    server = createServer((request, response) => {
      const body = pages[request.url ?? ""]
      response.writeHead(body === undefined ? 404 : 200, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": "default-src 'self'",
      })
      response.end(body ?? "")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  it("drives Debian's Chromium and finds a clean, accessible page clean", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const watch = await watchPage(page, { allowedOrigins: [origin] })
    await page.goto(`${origin}/good`)
    await page.getByLabel("Name").fill("Dana")
    await expect(page.getByRole("button", { name: "Send" }).isVisible()).resolves.toBe(true)
    await expectAccessible(page, { screen: "good page" })
    await watch.expectClean()
    await context.close()
  })

  it("reports a CSP violation, a request to another origin and a serious accessibility violation", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const watch = await watchPage(page, { allowedOrigins: [origin] })
    await page.goto(`${origin}/bad`)
    expect(await page.title()).toBe("Bad")
    await expect(watch.expectClean()).rejects.toThrow(/CSP violation: script-src-elem blocked inline/)
    expect(watch.problems().join("\n")).toContain("request to another origin: GET http://198.51.100.7/pixel.png")
    await expect(expectAccessible(page, { screen: "bad page" })).rejects.toThrow(/critical label/)
    await context.close()
  })

  it("finds what is cut off: a narrow input, an identifier broken, text past its box, the page too wide", async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } })
    const page = await context.newPage()
    await page.setContent(cramped)
    const problems = (await layoutProblems(page, ".scroll")).join("\n")
    expect(problems).toMatch(/<input> “Monday = "09:00–17:00, 18:00–22:00"” overflows/)
    expect(problems).toContain("“lead.created” is broken across lines")
    expect(problems).toMatch(/<p> “a sentence that does not wrap.*” overflows/)
    expect(problems).toMatch(/the page is \d+ px wide in a 360 px window/)
    expect(problems).not.toContain("<div.scroll>")
    await expect(expectNothingCutOff(page, { screen: "cramped" })).rejects.toThrow(/layout of cramped:/)
    await context.close()
  })
})
