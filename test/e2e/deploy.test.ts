import { readdir, readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { TopicCatalog } from "@parley/contracts"
import { beforeAll, describe, expect, it } from "vitest"
import { parse, parseAllDocuments } from "yaml"
import { type SchemaNode, validate } from "./support/json-schema.ts"

// No Helm binary and no Docker engine here: these tests check everything about the chart and the
// image that can be checked by reading them, so a typo fails CI rather than a platform team's install.
const root = fileURLToPath(new URL("../../", import.meta.url))
const chart = `${root}deploy/helm/parley/`
const read = (path: string) => readFile(`${root}${path}`, "utf8")
const SERVICES = ["gateway", "identity", "webhook-registry", "dispatcher", "assistant", "messaging"]

type Values = Record<string, unknown> & {
  services: Record<string, { port: number; portEnv: string }>
  kafka: { topics: Array<{ name: string; partitions: number; cleanupPolicy: string }> }
}

let values: Values
let templates: Record<string, string>

beforeAll(async () => {
  values = parse(await readFile(`${chart}values.yaml`, "utf8")) as Values
  templates = {}
  for (const dir of ["templates/", "templates/tests/"]) {
    for (const entry of await readdir(`${chart}${dir}`, { withFileTypes: true })) {
      if (entry.isFile()) templates[`${dir}${entry.name}`] = await readFile(`${chart}${dir}${entry.name}`, "utf8")
    }
  }
})

/** The value at a dotted path (`kafka.brokers`), or undefined. */
const at = (path: string): unknown =>
  path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], values)

describe("Helm chart", () => {
  it("has a Chart.yaml with a name, an application version and a semantic chart version", async () => {
    const meta = parse(await readFile(`${chart}Chart.yaml`, "utf8")) as Record<string, string>
    expect(meta.apiVersion).toBe("v2")
    expect(meta.name).toBe("parley")
    expect(meta.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(meta.appVersion).toBeTruthy()
  })

  it("declares every Parley service in values, each with its own port", () => {
    expect(Object.keys(values.services).sort()).toEqual([...SERVICES].sort())
    const ports = Object.values(values.services).map((service) => service.port)
    expect(new Set(ports).size).toBe(ports.length)
  })

  it("validates its default values against values.schema.json", async () => {
    const schema = JSON.parse(await readFile(`${chart}values.schema.json`, "utf8")) as SchemaNode
    expect(validate(schema, values)).toEqual([])
  })

  it("has a schema that refuses mistyped values", async () => {
    const schema = JSON.parse(await readFile(`${chart}values.schema.json`, "utf8")) as SchemaNode
    const broken = structuredClone(values) as Values & { rateLimits: { generalPerMin: unknown } }
    broken.rateLimits.generalPerMin = "lots"
    delete (broken.services as Record<string, unknown>).dispatcher
    expect(validate(schema, broken)).toEqual(
      expect.arrayContaining([
        "$.rateLimits.generalPerMin: expected integer, got string",
        "$.services.dispatcher: required",
      ]),
    )
  })

  it("renders a Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget for every service", () => {
    const kinds = { "templates/deployment.yaml": "Deployment", "templates/service.yaml": "Service" }
    for (const [file, kind] of Object.entries({
      ...kinds,
      "templates/hpa.yaml": "HorizontalPodAutoscaler",
      "templates/pdb.yaml": "PodDisruptionBudget",
    })) {
      const template = templates[file]
      expect(template, file).toBeDefined()
      expect(template).toContain(`kind: ${kind}`)
      // One document per entry of `.Values.services`: the template ranges over them.
      expect(template).toMatch(/range \$name, \$service := \.Values\.services/)
    }
  })

  it("probes liveness and readiness on the health routes every service serves", () => {
    const deployment = templates["templates/deployment.yaml"] as string
    expect(deployment).toMatch(/livenessProbe:\s+httpGet: \{ path: \/health\/live/)
    expect(deployment).toMatch(/readinessProbe:\s+httpGet: \{ path: \/health\/ready/)
    expect(deployment).toContain("resources:")
  })

  it("refers only to values that exist", () => {
    const missing: Array<string> = []
    for (const [file, text] of Object.entries(templates)) {
      for (const match of text.matchAll(/\.Values\.([A-Za-z0-9_.]+)/g)) {
        const path = (match[1] as string).replace(/\.$/, "")
        if (at(path) === undefined) missing.push(`${file}: .Values.${path}`)
      }
    }
    expect(missing).toEqual([])
  })

  it("fails fast with a message naming each required value", () => {
    const helpers = templates["templates/_helpers.tpl"] as string
    for (const value of ["database.url", "redis.url", "kafka.brokers", "secrets.secretKey", "secrets.internalSecret"]) {
      expect(helpers).toMatch(new RegExp(`(fail|required) "parley: set ${value.replace(".", "\\.")}`))
    }
    expect(templates["templates/deployment.yaml"]).toMatch(/^\{\{- include "parley.validate" \. -\}\}/)
  })

  it("supports existing Secrets instead of inline secrets", () => {
    expect(templates["templates/secret.yaml"]).toMatch(/if not \.Values\.secrets\.existingSecret/)
    expect(templates["templates/_helpers.tpl"]).toContain(".Values.database.existingSecret")
  })

  it("creates every bus topic with the partition counts of @parley/contracts in a hook Job", () => {
    expect(values.kafka.topics.map(({ name, partitions }) => ({ name, partitions }))).toEqual(
      TopicCatalog.map(({ name, partitions }) => ({ name, partitions })),
    )
    const job = templates["templates/topics-job.yaml"] as string
    expect(job).toContain("helm.sh/hook: pre-install,pre-upgrade")
    expect(job).toContain("--if-not-exists")
  })

  it("ships a chart test that checks the gateway is ready", () => {
    expect(templates["templates/tests/gateway-ready.yaml"]).toContain("helm.sh/hook: test")
  })

  it("ships a chart test that loads the chat widget and its panel from the gateway", () => {
    const test = templates["templates/tests/gateway-widget.yaml"] as string
    expect(test).toContain("helm.sh/hook: test")
    expect(test).toContain('"/widget.js"')
  })

  it("ships a chart test that loads the console's page and its script from the gateway", () => {
    const test = templates["templates/tests/gateway-console.yaml"] as string
    expect(test).toContain("helm.sh/hook: test")
    expect(test).toContain('"/console/"')
  })
})

describe("container image", () => {
  it("builds in stages and runs as a non-root user", async () => {
    const dockerfile = await read("deploy/docker/Dockerfile")
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2)
    expect(dockerfile).toMatch(/^USER node$/m)
    expect(dockerfile).toContain("npm ci")
    // npm ci needs the manifest of every workspace the lockfile links (the widget's tests use test/browser).
    const rootManifest = JSON.parse(await read("package.json")) as { workspaces: Array<string> }
    const copied = /^COPY --parents (.+) \.\/$/m.exec(dockerfile)?.[1]?.split(" ") ?? []
    // `COPY --parents` exists only in BuildKit's labs channel of the 1.7 syntax (under 1.7 the build fails
    // with "unknown flag: parents"): the first line must ask for it.
    expect(dockerfile.split("\n")[0]).toMatch(/^# syntax=docker\/dockerfile:1\.(?:[7-9]|1\d)-labs$/)
    for (const workspace of rootManifest.workspaces) expect(copied, workspace).toContain(`${workspace}/package.json`)
    expect(await read(".dockerignore")).toContain("node_modules")
  })

  it("runs exactly the services the chart deploys, plus standalone", async () => {
    const entrypoint = await read("deploy/docker/entrypoint.sh")
    const named = /^\s+([a-z|-]+)\) ;;$/m.exec(entrypoint)?.[1]?.split("|")
    expect(named?.sort()).toEqual([...SERVICES, "standalone"].sort())
  })

  it("has a compose file that parses and runs every service on Kafka, Postgres and Redis", async () => {
    // Compose resolves YAML merge keys (`<<: *parley-env`), so parse with them on.
    const documents = parseAllDocuments(await read("deploy/docker/compose.yaml"), { merge: true })
    expect(documents.flatMap((document) => document.errors)).toEqual([])
    const compose = documents[0]?.toJS() as { services: Record<string, { environment?: Record<string, string> }> }
    for (const service of [...SERVICES, "postgres", "redis", "kafka", "kafka-topics"]) {
      expect(compose.services[service], service).toBeDefined()
    }
    for (const service of SERVICES) {
      expect(compose.services[service]?.environment?.PARLEY_SERVICE).toBe(service)
      expect(compose.services[service]?.environment?.KAFKA_BROKERS).toBe("kafka:9092")
    }
  })

  it("creates the same topics in compose as the chart does", async () => {
    const script = await read("deploy/docker/topics.sh")
    const created = [...script.matchAll(/^create (\S+) (\d+) (\S+)$/gm)].map((m) => ({
      name: m[1],
      partitions: Number(m[2]),
      cleanupPolicy: m[3],
    }))
    expect(created).toEqual(values.kafka.topics)
  })
})
