import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * The casts that throw a type away instead of proving it: `as never` and `as unknown as` (which
 * TypeScript accepts for anything), and a cast to a branded id of `@parley/contracts`, which skips
 * the decoding that is the brand's whole point. An id is branded where a row or a request is
 * decoded and keeps its type to the handler (#29); a value of the wrong type is decoded
 * (`Schema.is`, `Schema.decodeUnknown…`, `OrgId.make`) or given the right type at its source.
 */
const TYPE_CAST =
  /\bas (?:never\b|unknown as\b|(?:Org|User|Key|Webhook|Delivery|Lead|Booking|Campaign|Template|Session|Message|Media|Event)Id\b)/

const typeScriptFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === "node_modules"
        ? []
        : typeScriptFiles(`${dir}/${entry.name}`)
      : entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")
        ? [`${dir}/${entry.name}`]
        : [],
  )

/**
 * Every such cast in the TypeScript files under `dir`, as `file:line: text` with the file relative
 * to `dir`. Tests (`*.test.ts`) are left out: one may well build an id no decoder would accept, to
 * see what the code does with it. Comment lines are not code and are skipped. Throws when `dir`
 * holds no source file, so a moved folder cannot make the check pass by finding nothing.
 */
export const typeCastsIn = (dir: URL | string): Array<string> => {
  const root = typeof dir === "string" ? dir : fileURLToPath(dir)
  const base = root.replace(/\/$/, "")
  const files = typeScriptFiles(base)
  if (files.length === 0) throw new Error(`typeCastsIn: no TypeScript source file under ${root}`)
  return files.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, index) => {
        const code = line.trim()
        if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) return []
        return TYPE_CAST.test(line) ? [`${file.slice(base.length + 1)}:${index + 1}: ${code}`] : []
      }),
  )
}
