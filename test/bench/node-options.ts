import { readFileSync } from "node:fs"

/**
 * The Node flags a service runs with (`services/<name>/node-options`: the image's entrypoint passes
 * the dispatcher's, npm start's script the standalone's), unless BENCH_DEPLOYED_NODE_OPTIONS=off;
 * then `extra` (a benchmark's own variable, space-separated).
 */
export const nodeOptionsOf = (service: "dispatcher" | "standalone", extra = ""): Array<string> => {
  const deployed =
    process.env.BENCH_DEPLOYED_NODE_OPTIONS === "off"
      ? ""
      : readFileSync(new URL(`../../services/${service}/node-options`, import.meta.url), "utf8")
          .split("\n")
          .filter((line) => !line.startsWith("#"))
          .join(" ")
  return `${deployed} ${extra}`.split(/\s+/).filter(Boolean)
}
