{{/* Names, labels and the shared environment of every Parley service. */}}

{{- define "parley.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "parley.serviceName" -}}
{{- printf "%s-%s" (include "parley.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "parley.labels" -}}
app.kubernetes.io/name: parley
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "parley.selector" -}}
app.kubernetes.io/name: parley
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "parley.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "parley.secretName" -}}
{{- default (printf "%s-secrets" (include "parley.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* Fail fast, with the value to set, before anything is applied. */}}
{{- define "parley.validate" -}}
{{- required "parley: set publicUrl (https://parley.your-company.com): the console accepts sign-ins only from that origin, and links and callbacks are built from it" .Values.publicUrl | substr 0 0 -}}
{{- if and (gt (int .Values.preStopSleepSeconds) 0) (ge (int .Values.preStopSleepSeconds) (int .Values.terminationGracePeriodSeconds)) -}}
{{- fail "parley: preStopSleepSeconds must be shorter than terminationGracePeriodSeconds, which also has to cover the service's own drain after SIGTERM" -}}
{{- end -}}
{{- if not (or .Values.database.url .Values.database.existingSecret) -}}
{{- fail "parley: set database.url (postgres://…) or database.existingSecret (a Secret with key DATABASE_URL)" -}}
{{- end -}}
{{- if not (or .Values.redis.url .Values.redis.existingSecret) -}}
{{- fail "parley: set redis.url (redis://…) or redis.existingSecret (a Secret with key REDIS_URL): the gateway's rate limits are shared through Redis" -}}
{{- end -}}
{{- required "parley: set kafka.brokers (host:9092,…): every service talks over Kafka" .Values.kafka.brokers | quote | substr 0 0 -}}
{{- if and .Values.secrets.existingSecret .Values.database.url (not .Values.database.existingSecret) -}}
{{- fail "parley: database.url is kept in the chart's Secret, which secrets.existingSecret replaces: put DATABASE_URL in that Secret and set database.existingSecret to it" -}}
{{- end -}}
{{- if and .Values.secrets.existingSecret .Values.redis.url (not .Values.redis.existingSecret) -}}
{{- fail "parley: redis.url is kept in the chart's Secret, which secrets.existingSecret replaces: put REDIS_URL in that Secret and set redis.existingSecret to it" -}}
{{- end -}}
{{- if not .Values.secrets.existingSecret -}}
{{- required "parley: set secrets.secretKey (openssl rand -base64 32) or secrets.existingSecret" .Values.secrets.secretKey | substr 0 0 -}}
{{- required "parley: set secrets.internalSecret (a long random string) or secrets.existingSecret" .Values.secrets.internalSecret | substr 0 0 -}}
{{- end -}}
{{- end -}}

{{/*
The Secret's keys each service reads (its config in services/<name>/src/config.ts, and
@parley/bus' InfrastructureConfig for DATABASE_URL), and no others: the dispatcher never sees the
operator token, the assistant never the provider's app secret. The gateway runs on Kafka without
Postgres, so it has no DATABASE_URL; the dispatcher verifies no principal, so no internal secret.
*/}}
{{- define "parley.secretsRead" -}}
{{- $reads := dict
  "gateway" (list "REDIS_URL" "PARLEY_INTERNAL_SECRET")
  "identity" (list "DATABASE_URL" "PARLEY_INTERNAL_SECRET" "PARLEY_OPERATOR_TOKEN")
  "webhook-registry" (list "DATABASE_URL" "PARLEY_INTERNAL_SECRET" "PARLEY_SECRET_KEY")
  "dispatcher" (list "DATABASE_URL" "PARLEY_SECRET_KEY")
  "assistant" (list "DATABASE_URL" "PARLEY_INTERNAL_SECRET" "PARLEY_LLM_API_KEY")
  "messaging" (list "DATABASE_URL" "PARLEY_INTERNAL_SECRET" "PARLEY_SECRET_KEY" "PARLEY_CLOUD_APP_SECRET" "PARLEY_CLOUD_VERIFY_TOKEN")
-}}
{{- required (printf "parley: no secrets are listed for the service %q in parley.secretsRead" .name) (get $reads .name) | join "," -}}
{{- end -}}

{{- define "parley.secretEnv" -}}
{{- $root := .root -}}
{{- $optional := list "PARLEY_OPERATOR_TOKEN" "PARLEY_CLOUD_APP_SECRET" "PARLEY_CLOUD_VERIFY_TOKEN" "PARLEY_LLM_API_KEY" -}}
{{- range $key := splitList "," (include "parley.secretsRead" .) }}
{{- $secret := include "parley.secretName" $root -}}
{{- if eq $key "DATABASE_URL" }}{{ $secret = default $secret $root.Values.database.existingSecret }}{{ end -}}
{{- if eq $key "REDIS_URL" }}{{ $secret = default $secret $root.Values.redis.existingSecret }}{{ end }}
- name: {{ $key }}
  valueFrom:
    secretKeyRef: { name: {{ $secret }}, key: {{ $key }}{{ if has $key $optional }}, optional: true{{ end }} }
{{- end }}
{{- end -}}

{{- define "parley.env" -}}
{{- $root := .root -}}
- name: PARLEY_SERVICE
  value: {{ .name | quote }}
- name: PARLEY_HOST
  value: "0.0.0.0"
- name: {{ .service.portEnv }}
  value: {{ .service.port | quote }}
{{- if .service.metricsPort }}
- name: PARLEY_GATEWAY_METRICS_HOST
  value: "0.0.0.0"
- name: PARLEY_GATEWAY_METRICS_PORT
  value: {{ .service.metricsPort | quote }}
{{- end }}
- name: PARLEY_PUBLIC_URL
  value: {{ $root.Values.publicUrl | quote }}
- name: PARLEY_LOG_LEVEL
  value: {{ $root.Values.logLevel | quote }}
- name: KAFKA_BROKERS
  value: {{ $root.Values.kafka.brokers | quote }}
{{- include "parley.secretEnv" . }}
- name: PARLEY_RATE_GENERAL_PER_MIN
  value: {{ $root.Values.rateLimits.generalPerMin | quote }}
- name: PARLEY_RATE_HEAVY_PER_MIN
  value: {{ $root.Values.rateLimits.heavyPerMin | quote }}
- name: PARLEY_CLOUD_API_URL
  value: {{ $root.Values.cloud.apiUrl | quote }}
- name: PARLEY_CLOUD_API_VERSION
  value: {{ $root.Values.cloud.apiVersion | quote }}
{{- if $root.Values.llm.baseUrl }}
- name: PARLEY_LLM_BASE_URL
  value: {{ $root.Values.llm.baseUrl | quote }}
- name: PARLEY_LLM_MODEL
  value: {{ $root.Values.llm.model | quote }}
{{- end }}
- name: PARLEY_WEBHOOK_ALLOW_PRIVATE
  value: {{ $root.Values.webhooks.allowPrivate | quote }}
{{- if and (eq .name "gateway") $root.Values.gateway.trustedProxies }}
- name: PARLEY_GATEWAY_TRUSTED_PROXIES
  value: {{ join "," $root.Values.gateway.trustedProxies | quote }}
{{- end }}
{{- with $root.Values.tracing }}
{{- if .otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .otlpEndpoint | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: {{ .protocol | quote }}
{{- with .sampler }}
- name: OTEL_TRACES_SAMPLER
  value: {{ . | quote }}
{{- end }}
{{- with .samplerArg }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- range $name, $svc := $root.Values.services }}
{{- if ne $name "gateway" }}
- name: {{ printf "PARLEY_%s_URL" ($name | upper | replace "-" "_") }}
  value: {{ printf "http://%s:%v" (include "parley.serviceName" (dict "root" $root "name" $name)) $svc.port | quote }}
{{- end }}
{{- end }}
{{- range $variable := concat ($root.Values.extraEnv | default list) (.service.extraEnv | default list) }}
{{- /* `--set extraEnv[0].value=5` gives a number; a container's variable is always a string. */}}
{{- if hasKey $variable "value" }}
{{- $value := $variable.value }}
{{- /* A values file's numbers are float64: 1000000 would print as 1e+06. */}}
{{- if and (kindIs "float64" $value) (eq (float64 (int64 $value)) $value) }}{{ $value = int64 $value }}{{ end }}
{{- $variable = merge (dict "value" (toString $value)) (omit $variable "value") }}
{{- end }}
{{- list $variable | toYaml | nindent 0 }}
{{- end }}
{{- end -}}

{{/* A scheduling value of the service's own, else the top-level one. */}}
{{- define "parley.podValue" -}}
{{- $own := get .service .key -}}
{{- toYaml (ternary $own (get .root.Values .key) (not (empty $own))) -}}
{{- end -}}

{{/*
The pods' topology spread: the service's or the top-level constraints (each without a labelSelector
given the service's pod labels), else, with defaultTopologySpread, a soft spread over nodes and zones.
*/}}
{{- define "parley.topologySpread" -}}
{{- $given := .service.topologySpreadConstraints | default .root.Values.topologySpreadConstraints -}}
{{- $selector := include "parley.selector" . | fromYaml -}}
{{- $constraints := list -}}
{{- if $given -}}
{{- range $given -}}
{{- $constraint := deepCopy . -}}
{{- if not (hasKey $constraint "labelSelector") -}}
{{- $_ := set $constraint "labelSelector" (dict "matchLabels" $selector) -}}
{{- end -}}
{{- $constraints = append $constraints $constraint -}}
{{- end -}}
{{- else if .root.Values.defaultTopologySpread -}}
{{- range $key := list "kubernetes.io/hostname" "topology.kubernetes.io/zone" -}}
{{- $constraints = append $constraints (dict "maxSkew" 1 "topologyKey" $key "whenUnsatisfiable" "ScheduleAnyway" "labelSelector" (dict "matchLabels" $selector) "matchLabelKeys" (list "pod-template-hash")) -}}
{{- end -}}
{{- end -}}
{{- with $constraints }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{- define "parley.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "parley.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Whether a service runs more than one pod, so that a PodDisruptionBudget can let one go. */}}
{{- define "parley.pdbEnabled" -}}
{{- $pdb := .service.pdb | default dict -}}
{{- $replicas := ternary .service.autoscaling.minReplicas .service.replicas .service.autoscaling.enabled -}}
{{- if and (ne (toString $pdb.enabled) "false") (gt (int $replicas) 1) -}}true{{- end -}}
{{- end -}}
