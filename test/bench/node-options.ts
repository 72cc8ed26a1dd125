import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * The Node flags a service runs with (`services/<name>/node-options`: the image's entrypoint passes
 * the dispatcher's, npm start's script the standalone's), unless BENCH_DEPLOYED_NODE_OPTIONS=off;
 * then `extra` (a benchmark's own variable, space-separated). `root`: another tree's (an extracted
 * revision runs with the flags it shipped with), else this one's.
 */
export const nodeOptionsOf = (service: "dispatcher" | "standalone", extra = "", root?: string): Array<string> => {
  const file =
    root === undefined
      ? new URL(`../../services/${service}/node-options`, import.meta.url)
      : join(root, "services", service, "node-options")
  const deployed =
    process.env.BENCH_DEPLOYED_NODE_OPTIONS === "off" || !existsSync(file)
      ? ""
      : readFileSync(file, "utf8")
          .split("\n")
          .filter((line) => !line.startsWith("#"))
          .join(" ")
  return `${deployed} ${extra}`.split(/\s+/).filter(Boolean)
}
