{{/* The release's base name, at most 63 characters. */}}
{{- define "ferry.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "ferry.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "ferry.labels" -}}
{{ include "ferry.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "ferry.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}

{{/* One env entry from a Secret: (list ctx "FERRY_NAME" .Values.secrets.x) */}}
{{- define "ferry.secretEnv" -}}
{{- $ctx := index . 0 -}}
{{- $ref := index . 2 -}}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name | default $ctx.Values.secrets.existingSecret | required (printf "%s: set secrets.existingSecret or the secret's name" (index . 1)) }}
      key: {{ $ref.key }}
{{- end -}}

{{/* The FERRY_* environment every Ferry container shares (api, worker, migrate). */}}
{{- define "ferry.env" -}}
- name: FERRY_ENV
  value: production
- name: FERRY_HTTP_ADDR
  value: {{ printf ":%v" .Values.ports.http | quote }}
- name: FERRY_METRICS_ADDR
  value: {{ printf ":%v" .Values.ports.metrics | quote }}
- name: FERRY_PUBLIC_URL
  value: {{ .Values.config.publicURL | required "config.publicURL (FERRY_PUBLIC_URL) is required" | quote }}
{{- with .Values.config.ingestURL }}
- name: FERRY_INGEST_URL
  value: {{ . | quote }}
{{- end }}
- name: FERRY_LOG_LEVEL
  value: {{ .Values.config.logLevel | quote }}
- name: FERRY_SHUTDOWN_GRACE
  value: {{ .Values.config.shutdownGrace | quote }}
{{- with .Values.config.trustedProxies }}
- name: FERRY_TRUSTED_PROXIES
  value: {{ . | quote }}
{{- end }}
{{- with .Values.config.mailFrom }}
- name: FERRY_MAIL_FROM
  value: {{ . | quote }}
{{- end }}
- name: FERRY_DB_MAX_CONNS
  value: {{ .Values.database.maxConns | quote }}
- name: FERRY_KAFKA_BROKERS
  value: {{ .Values.kafka.brokers | required "kafka.brokers (FERRY_KAFKA_BROKERS) is required" | quote }}
{{- with .Values.kafka.topicPrefix }}
- name: FERRY_KAFKA_TOPIC_PREFIX
  value: {{ . | quote }}
{{- end }}
- name: FERRY_KAFKA_GROUP
  value: {{ .Values.kafka.group | quote }}
- name: FERRY_KAFKA_PARTITIONS
  value: {{ .Values.kafka.partitions | quote }}
- name: FERRY_KAFKA_REPLICATION_FACTOR
  value: {{ .Values.kafka.replicationFactor | quote }}
{{- with .Values.kafka.minInsyncReplicas }}
- name: FERRY_KAFKA_MIN_INSYNC_REPLICAS
  value: {{ . | quote }}
{{- end }}
{{- if or .Values.kafka.tls.enabled .Values.kafka.tls.caSecret.name }}
- name: FERRY_KAFKA_TLS
  value: "true"
{{- end }}
{{- if .Values.kafka.tls.caSecret.name }}
- name: FERRY_KAFKA_TLS_CA_FILE
  value: {{ printf "/etc/ferry/kafka-ca/%s" .Values.kafka.tls.caSecret.key | quote }}
{{- end }}
{{- with .Values.kafka.sasl.mechanism }}
{{- if not (has . (list "SCRAM-SHA-256" "SCRAM-SHA-512")) }}
{{- fail (printf "kafka.sasl.mechanism: want SCRAM-SHA-256 or SCRAM-SHA-512, got %q" .) }}
{{- end }}
- name: FERRY_KAFKA_SASL_MECHANISM
  value: {{ . | quote }}
{{ include "ferry.secretEnv" (list $ "FERRY_KAFKA_SASL_USERNAME" $.Values.secrets.kafkaSASLUsername) }}
{{ include "ferry.secretEnv" (list $ "FERRY_KAFKA_SASL_PASSWORD" $.Values.secrets.kafkaSASLPassword) }}
{{- end }}
{{ include "ferry.secretEnv" (list . "FERRY_DATABASE_URL" .Values.secrets.databaseURL) }}
{{ include "ferry.secretEnv" (list . "FERRY_MASTER_KEY" .Values.secrets.masterKey) }}
{{ include "ferry.secretEnv" (list . "FERRY_JWT_SECRET" .Values.secrets.jwtSecret) }}
{{- if .Values.secrets.otherMasterKeys.enabled }}
{{ include "ferry.secretEnv" (list . "FERRY_OTHER_MASTER_KEYS" .Values.secrets.otherMasterKeys) }}
{{- end }}
{{- if .Values.secrets.smtpURL.enabled }}
{{ include "ferry.secretEnv" (list . "FERRY_SMTP_URL" .Values.secrets.smtpURL) }}
{{- end }}
{{- range $name, $value := .Values.config.extraEnv }}
{{- if not (hasPrefix "FERRY_" $name) }}
{{- fail (printf "config.extraEnv: %s is not a FERRY_* variable" $name) }}
{{- end }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{/* Volumes every Ferry pod mounts: a writable /tmp (the root file system
is read-only) and the Kafka CA when one is given. */}}
{{- define "ferry.volumes" -}}
- name: tmp
  emptyDir: {}
{{- if .Values.kafka.tls.caSecret.name }}
- name: kafka-ca
  secret:
    secretName: {{ .Values.kafka.tls.caSecret.name }}
    items:
      - key: {{ .Values.kafka.tls.caSecret.key }}
        path: {{ .Values.kafka.tls.caSecret.key }}
{{- end }}
{{- end -}}

{{- define "ferry.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if .Values.kafka.tls.caSecret.name }}
- name: kafka-ca
  mountPath: /etc/ferry/kafka-ca
  readOnly: true
{{- end }}
{{- end -}}

{{/* Pod-level settings shared by the api, worker and migration pods. */}}
{{- define "ferry.podSpec" -}}
automountServiceAccountToken: false
{{- with .Values.serviceAccountName }}
serviceAccountName: {{ . }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
volumes:
  {{- include "ferry.volumes" . | nindent 2 }}
{{- end -}}
