/**
 * `npm start`'s entry: turns on Node's on-disk compile cache, then loads the program. The cache
 * keeps V8's compiled code (and the stripped TypeScript) of every module across starts, which
 * halved the time `npm start` spends loading its few hundred modules; it has to be on before they
 * are loaded, hence this file and a dynamic import. Runtimes without it (Deno) just skip it.
 */
import * as nodeModule from "node:module"

;(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.()
await import("./program.ts")
