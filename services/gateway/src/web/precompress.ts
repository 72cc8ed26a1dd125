/**
 * The last step of a front end's build: `node ../../services/gateway/src/web/precompress.ts dist`
 * writes each compressible file's gzip and brotli forms beside it, which the gateway then reads
 * instead of compressing at start (`loadStaticFiles`).
 */
import { resolve } from "node:path"
import { precompressFolder } from "./static-files.ts"

const [, , folder] = process.argv
if (folder === undefined) {
  console.error("usage: node precompress.ts <build folder>")
  process.exit(2)
}
const written = await precompressFolder(resolve(folder))
console.log(`precompressed ${written} files in ${folder} (gzip and brotli)`)
