import { execFile as execFileCallback } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readdir, readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { TopicCatalog } from "@parley/contracts"
import { beforeAll, describe, expect, it } from "vitest"
import { parse, parseAllDocuments } from "yaml"
import { helmBinary, helmUnsupported } from "./support/helm.ts"
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
    for (const value of [
      "publicUrl",
      "database.url",
      "redis.url",
      "kafka.brokers",
      "secrets.secretKey",
      "secrets.internalSecret",
    ]) {
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

// The chart as Helm renders it, for what reading the templates cannot show: which variables, secrets,
// scheduling fields and budgets each pod really gets, and which values the schema refuses.
const execFile = promisify(execFileCallback)
const helmMissing = helmUnsupported()
const REQUIRED = [
  "publicUrl=https://parley.example.org",
  "database.url=postgres://parley:pw@postgres:5432/parley",
  "redis.url=redis://redis:6379",
  "kafka.brokers=kafka-0:9092",
  `secrets.secretKey=${randomBytes(32).toString("base64")}`,
  `secrets.internalSecret=${randomBytes(48).toString("base64")}`,
]
const EXISTING_SECRET = [
  "publicUrl=https://parley.example.org",
  "kafka.brokers=kafka-0:9092",
  "secrets.existingSecret=parley-prod",
  "database.existingSecret=parley-db",
  "redis.existingSecret=parley-redis",
]

type Manifest = { kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: unknown }
type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }
type Resources = { requests?: Record<string, string>; limits?: Record<string, string> }
type Container = {
  env?: Array<EnvVar>
  resources?: Resources
  lifecycle?: { preStop?: { exec?: { command: Array<string> } } }
}
type PodSpec = Record<string, unknown> & { containers: Array<Container>; automountServiceAccountToken?: boolean }
type Deployment = Manifest & {
  spec: {
    template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec }
  }
}

let helm: string
const helmRun = async (args: ReadonlyArray<string>, sets: ReadonlyArray<string>) => {
  const { stdout } = await execFile(helm, [...args, ...sets.flatMap((set) => ["--set", set])], {
    maxBuffer: 16 * 1024 * 1024,
  })
  return stdout
}
const render = async (sets: ReadonlyArray<string>): Promise<Array<Manifest>> =>
  parseAllDocuments(await helmRun(["template", "parley", chart], sets))
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null)
const ofKind = <T extends Manifest = Manifest>(manifests: Array<Manifest>, kind: string) =>
  manifests.filter((manifest) => manifest.kind === kind) as Array<T>
const component = (manifest: Manifest) => manifest.metadata.labels?.["app.kubernetes.io/component"] as string
const deploymentsOf = async (sets: ReadonlyArray<string>) =>
  new Map(ofKind<Deployment>(await render(sets), "Deployment").map((deployment) => [component(deployment), deployment]))
const podOf = (deployment: Deployment | undefined) => deployment?.spec.template.spec as PodSpec
const envOf = (deployment: Deployment | undefined) => podOf(deployment).containers[0]?.env ?? []
const secretKeysOf = (deployment: Deployment | undefined) =>
  envOf(deployment)
    .flatMap((variable) => variable.valueFrom?.secretKeyRef ?? [])
    .map((ref) => ref.key)
    .sort()

/** What each service reads from the Secret (services/<name>/src/config.ts, @parley/bus' InfrastructureConfig). */
const SECRETS_READ: Record<string, Array<string>> = {
  gateway: ["PARLEY_INTERNAL_SECRET", "REDIS_URL"],
  identity: ["DATABASE_URL", "PARLEY_INTERNAL_SECRET", "PARLEY_OPERATOR_TOKEN"],
  "webhook-registry": ["DATABASE_URL", "PARLEY_INTERNAL_SECRET", "PARLEY_SECRET_KEY"],
  dispatcher: ["DATABASE_URL", "PARLEY_SECRET_KEY"],
  assistant: ["DATABASE_URL", "PARLEY_INTERNAL_SECRET", "PARLEY_LLM_API_KEY"],
  messaging: [
    "DATABASE_URL",
    "PARLEY_CLOUD_APP_SECRET",
    "PARLEY_CLOUD_VERIFY_TOKEN",
    "PARLEY_INTERNAL_SECRET",
    "PARLEY_SECRET_KEY",
  ],
}

describe.skipIf(helmMissing !== undefined)("Helm chart, rendered", () => {
  let defaults: Array<Manifest>

  beforeAll(async () => {
    helm = await helmBinary()
    defaults = await render(REQUIRED)
  }, 120_000)

  it("lints (strict) and renders the install command of its README", async () => {
    const readme = await readFile(`${chart}README.md`, "utf8")
    const command = /^helm install parley deploy\/helm\/parley \\\n((?:\s+--set .+\n)+)/m.exec(readme)?.[1]
    expect(command).toBeDefined()
    const sets = [...(command as string).matchAll(/--set (.+?)(?: \\)?$/gm)].map((match) =>
      (match[1] as string)
        .replace(/\$\(openssl rand -base64 (\d+)\)/, (_, bytes: string) =>
          randomBytes(Number(bytes)).toString("base64"),
        )
        .replaceAll(/["']/g, ""),
    )
    expect(sets.map((set) => set.slice(0, set.indexOf("=")))).toContain("publicUrl")
    expect(await helmRun(["lint", "--strict", chart], sets)).toContain("1 chart(s) linted, 0 chart(s) failed")
    expect(ofKind(await render(sets), "Deployment")).toHaveLength(SERVICES.length)
  })

  it("fails to render without publicUrl, since the console accepts sign-ins from that origin alone", async () => {
    await expect(render(REQUIRED.filter((set) => !set.startsWith("publicUrl=")))).rejects.toThrow(/set publicUrl/)
  })

  it("refuses in its schema what the services would refuse at start", async () => {
    for (const [set, value] of [
      ["gateway.trustedProxies={0.0.0.0/0}", "trustedProxies"],
      ["gateway.trustedProxies={10.0.0.1,::/0}", "trustedProxies"],
      ["gateway.trustedProxies={10.0.0.0/33}", "trustedProxies"],
      ["secrets.secretKey=short", "secretKey"],
      // 32 bytes in hex is 64 characters of the base64 alphabet, which decode to 48 bytes.
      [`secrets.secretKey=${randomBytes(32).toString("hex")}`, "secretKey"],
      [`secrets.secretKey=${randomBytes(31).toString("base64")}`, "secretKey"],
      ["secrets.internalSecret=abc", "internalSecret"],
    ]) {
      await expect(render([...REQUIRED, set as string]), set).rejects.toThrow(new RegExp(value as string))
    }
  })

  it("accepts the trusted proxies and keys the services accept: single addresses, CIDRs, base64url", async () => {
    const proxies = "10.0.0.1,10.0.0.0/8,2001:db8::1,2001:db8::/32"
    const deployments = await deploymentsOf([
      ...REQUIRED,
      `gateway.trustedProxies={${proxies}}`,
      `secrets.secretKey=${randomBytes(32).toString("base64url")}`,
    ])
    const trusted = envOf(deployments.get("gateway")).find(({ name }) => name === "PARLEY_GATEWAY_TRUSTED_PROXIES")
    expect(trusted?.value).toBe(proxies)
  })

  it("gives each Deployment the Secret keys its service reads and no others", async () => {
    const deployments = ofKind<Deployment>(defaults, "Deployment")
    expect(deployments.map(component).sort()).toEqual(Object.keys(SECRETS_READ).sort())
    for (const deployment of deployments) {
      expect(secretKeysOf(deployment), component(deployment)).toEqual(SECRETS_READ[component(deployment)])
    }
    const existing = await deploymentsOf(EXISTING_SECRET)
    for (const [name, deployment] of existing) {
      expect(secretKeysOf(deployment), name).toEqual(SECRETS_READ[name])
      for (const ref of envOf(deployment).flatMap((variable) => variable.valueFrom?.secretKeyRef ?? [])) {
        const from = { DATABASE_URL: "parley-db", REDIS_URL: "parley-redis" }[ref.key] ?? "parley-prod"
        expect(ref.name, `${name} ${ref.key}`).toBe(from)
      }
    }
  })

  it("passes extraEnv to every service's container, and a service's own extraEnv to it alone, after the rest", async () => {
    const deployments = await deploymentsOf([
      ...REQUIRED,
      "extraEnv[0].name=DATABASE_POOL_MAX",
      "extraEnv[0].value=5",
      "extraEnv[1].name=OTEL_RESOURCE_ATTRIBUTES",
      "extraEnv[1].value=deployment.environment=prod",
      "services.messaging.extraEnv[0].name=PARLEY_CLOUD_SEND_RATE",
      "services.messaging.extraEnv[0].value=40",
    ])
    for (const [name, deployment] of deployments) {
      const env = envOf(deployment)
      const mine = name === "messaging" ? [{ name: "PARLEY_CLOUD_SEND_RATE", value: "40" }] : []
      expect(env.slice(-2 - mine.length), name).toEqual([
        { name: "DATABASE_POOL_MAX", value: "5" },
        { name: "OTEL_RESOURCE_ATTRIBUTES", value: "deployment.environment=prod" },
        ...mine,
      ])
    }
  })

  it("places pods by the scheduling values, a service's own replacing the shared ones", async () => {
    const deployments = await deploymentsOf([
      ...REQUIRED,
      "nodeSelector.pool=parley",
      "services.dispatcher.nodeSelector.pool=workers",
      "tolerations[0].key=dedicated",
      "tolerations[0].operator=Exists",
      "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key=arch",
      "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator=Exists",
      "podAnnotations.team=messaging",
      "topologySpreadConstraints[0].maxSkew=1",
      "topologySpreadConstraints[0].topologyKey=topology.kubernetes.io/zone",
      "topologySpreadConstraints[0].whenUnsatisfiable=DoNotSchedule",
      "serviceAccount.annotations.role=parley",
    ])
    for (const [name, deployment] of deployments) {
      const pod = podOf(deployment)
      expect(pod.nodeSelector, name).toEqual({ pool: name === "dispatcher" ? "workers" : "parley" })
      expect(pod.tolerations).toEqual([{ key: "dedicated", operator: "Exists" }])
      expect(pod.affinity).toHaveProperty("nodeAffinity")
      expect(deployment?.spec.template.metadata.annotations?.team).toBe("messaging")
      expect(pod.topologySpreadConstraints).toEqual([
        {
          maxSkew: 1,
          topologyKey: "topology.kubernetes.io/zone",
          whenUnsatisfiable: "DoNotSchedule",
          labelSelector: { matchLabels: deployment?.spec.template.metadata.labels },
        },
      ])
      expect(pod.serviceAccountName).toBe("parley")
      expect(pod.automountServiceAccountToken).toBe(false)
    }
  })

  it("spreads each service's pods over nodes by default and lets them serve on a few seconds after preStop", () => {
    const [account] = ofKind(defaults, "ServiceAccount")
    expect(account?.metadata.name).toBe("parley")
    for (const deployment of ofKind<Deployment>(defaults, "Deployment")) {
      const pod = podOf(deployment)
      const spread = pod.topologySpreadConstraints as Array<Record<string, unknown>>
      expect(spread.find((constraint) => constraint.topologyKey === "kubernetes.io/hostname")).toMatchObject({
        maxSkew: 1,
        whenUnsatisfiable: "ScheduleAnyway",
        labelSelector: { matchLabels: deployment.spec.template.metadata.labels },
      })
      expect(pod.containers[0]?.lifecycle?.preStop?.exec?.command).toEqual(["/bin/sh", "-c", "sleep 5"])
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(5)
    }
  })

  it("renders a PodDisruptionBudget only for a service that runs more than one pod", async () => {
    expect(ofKind(defaults, "PodDisruptionBudget").map(component).sort()).toEqual([...SERVICES].sort())
    const manifests = await render([
      ...REQUIRED,
      "services.identity.autoscaling.enabled=false",
      "services.identity.replicas=1",
      "services.dispatcher.autoscaling.minReplicas=1",
      "services.assistant.autoscaling.enabled=false",
      "services.assistant.replicas=3",
      "services.messaging.pdb.enabled=false",
    ])
    expect(ofKind(manifests, "PodDisruptionBudget").map(component).sort()).toEqual([
      "assistant",
      "gateway",
      "webhook-registry",
    ])
  })

  it("sets requests and limits on the topics Job and the helm test Pods", () => {
    const containers = [
      ...ofKind<Manifest & { spec: { template: { spec: PodSpec } } }>(defaults, "Job").map(
        (job) => job.spec.template.spec,
      ),
      ...ofKind<Manifest & { spec: PodSpec }>(defaults, "Pod").map((pod) => pod.spec),
    ].flatMap((pod) => pod.containers)
    expect(containers).toHaveLength(4)
    for (const container of containers) {
      expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(["cpu", "memory"])
      expect(Object.keys(container.resources?.limits ?? {}).sort()).toEqual(["cpu", "memory"])
    }
  })
})

describe("deployment docs", () => {
  it("list every topic the chart creates", async () => {
    const readme = await read("README.md")
    const paragraph = /^Topics \(all `parley\.\*\.v1`[\s\S]+?\n\n/m.exec(readme)?.[0] ?? ""
    const listed = [...paragraph.matchAll(/`([a-z0-9.-]+)`/g)].map((match) => `parley.${match[1]}.v1`)
    expect([...listed].sort()).toEqual(values.kafka.topics.map(({ name }) => name).sort())
  })
})
