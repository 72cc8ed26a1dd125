/**
 * The browsable page at `/docs`: one self-contained HTML document (no CDN, no external file — many
 * deployments reach nothing outside), the operations rendered on the server so it reads without
 * JavaScript; a small inline script only filters the list. Its hash goes into the CSP.
 */
import { createHash } from "node:crypto"
import type { OpenApiDocument } from "@parley/contracts"

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** `code` spans for the document's backticks; everything else escaped. */
const inline = (text: string): string =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_match, code: string) => `<code>${code}</code>`)

type OperationObject = {
  readonly operationId: string
  readonly summary: string
  readonly tags: ReadonlyArray<string>
  readonly description?: string
  readonly security?: ReadonlyArray<Record<string, unknown>>
  readonly parameters?: ReadonlyArray<{ name: string; in: string; required: boolean; description?: string }>
  readonly requestBody?: { content: Record<string, { schema: unknown }> }
  readonly responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>
  readonly "x-parley-scope"?: string
}

const schemaName = (schema: unknown): string => {
  const reference = (schema as { $ref?: unknown } | undefined)?.$ref
  return typeof reference === "string" ? reference.replace("#/components/schemas/", "") : "inline schema"
}

const renderOperation = (method: string, path: string, op: OperationObject): string => {
  const security = (op.security ?? []).map((requirement) => Object.keys(requirement).join(" + ")).join(" or ")
  const parameters = (op.parameters ?? [])
    .map((p) => `<li><code>${escapeHtml(p.name)}</code> (${p.in}${p.required ? ", required" : ""})</li>`)
    .join("")
  const body = op.requestBody
    ? Object.entries(op.requestBody.content)
        .map(
          ([type, { schema }]) =>
            `<li>${escapeHtml(type)}: <a href="#schema-${schemaName(schema)}">${escapeHtml(schemaName(schema))}</a></li>`,
        )
        .join("")
    : ""
  const responses = Object.entries(op.responses)
    .map(([status, reply]) => {
      const content = Object.entries(reply.content ?? {})
        .map(
          ([type, { schema }]) =>
            ` — ${escapeHtml(type)} <a href="#schema-${schemaName(schema)}">${escapeHtml(schemaName(schema))}</a>`,
        )
        .join("")
      return `<li><b>${status}</b> ${inline(reply.description)}${content}</li>`
    })
    .join("")
  return `<details class="op" id="${escapeHtml(op.operationId)}" data-search="${escapeHtml(`${method} ${path} ${op.summary}`.toLowerCase())}">
<summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> ${inline(op.summary)}</summary>
${op.description === undefined ? "" : `<p>${inline(op.description)}</p>`}
<p>Authentication: ${security === "" ? "none" : escapeHtml(security)}${op["x-parley-scope"] === undefined ? "" : `; scope <code>${escapeHtml(op["x-parley-scope"])}</code>`}</p>
${parameters === "" ? "" : `<h4>Parameters</h4><ul>${parameters}</ul>`}
${body === "" ? "" : `<h4>Request body</h4><ul>${body}</ul>`}
<h4>Responses</h4><ul>${responses}</ul>
</details>`
}

const script = `const f=document.getElementById("filter");f.hidden=false;f.addEventListener("input",()=>{const q=f.value.toLowerCase();for(const e of document.querySelectorAll(".op"))e.hidden=!e.dataset.search.includes(q)})`

export const docsPageCsp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash("sha256").update(script).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

export const renderDocsPage = (document: OpenApiDocument): string => {
  const byTag = new Map<string, Array<string>>()
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item) as Array<[string, OperationObject]>) {
      const tag = op.tags[0] ?? "Other"
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(method, path, op)])
    }
  }
  const sections = [...byTag]
    .map(([tag, ops]) => `<section><h2>${escapeHtml(tag)}</h2>${ops.join("\n")}</section>`)
    .join("\n")
  const schemas = Object.entries(document.components.schemas)
    .map(
      ([name, schema]) =>
        `<details id="schema-${escapeHtml(name)}"><summary><code>${escapeHtml(name)}</code></summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`,
    )
    .join("\n")
  const info = document.info as { title: string; version: string; description: string }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} ${escapeHtml(info.version)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f4f5f7;padding:.75rem;overflow:auto}
.op{border:1px solid #d0d7de;border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}.op summary{cursor:pointer}
.m{display:inline-block;min-width:4.5rem;font-weight:600}.get{color:#0969da}.post{color:#1a7f37}.put,.patch{color:#9a6700}.delete{color:#cf222e}
h4{margin:.6rem 0 .2rem}#filter{width:100%;padding:.4rem;font-size:15px}
</style></head><body>
<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<p>${inline(info.description)} The machine-readable document: <a href="/docs/openapi.json">/docs/openapi.json</a> (OpenAPI 3.1).</p>
<input id="filter" type="search" placeholder="Filter operations" hidden>
${sections}
<section><h2>Schemas</h2>${schemas}</section>
<script>${script}</script>
</body></html>`
}
