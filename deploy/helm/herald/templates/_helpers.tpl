{{/* Names and labels shared by every object of the chart. */}}

{{/* The chart's name, overridable with nameOverride. */}}
{{- define "herald.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's full name: the prefix of every object's name. */}}
{{- define "herald.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "herald.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "herald.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* The labels that select the release's pods. */}}
{{- define "herald.selectorLabels" -}}
app.kubernetes.io/name: {{ include "herald.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The labels of every object. */}}
{{- define "herald.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "herald.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: herald
{{- end }}

{{/* The ServiceAccount the pods run as. */}}
{{- define "herald.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "herald.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The ConfigMap holding config.yaml. */}}
{{- define "herald.configMapName" -}}
{{- default (printf "%s-config" (include "herald.fullname" .)) .Values.config.existingConfigMap }}
{{- end }}

{{/* The Secret mounted in /etc/herald/credentials. */}}
{{- define "herald.filesSecretName" -}}
{{- default (printf "%s-credentials" (include "herald.fullname" .)) .Values.secrets.files.existingSecret }}
{{- end }}

{{/* The Secret whose keys are the container's environment variables. */}}
{{- define "herald.envSecretName" -}}
{{- default (printf "%s-env" (include "herald.fullname" .)) .Values.secrets.env.existingSecret }}
{{- end }}

{{/* config.yaml as a map, empty with config.existingConfigMap (the chart cannot read that). */}}
{{- define "herald.config" -}}
{{- if .Values.config.existingConfigMap }}
{{- dict | toYaml }}
{{- else }}
{{- .Values.config.yaml | required "config.yaml or config.existingConfigMap is required" | fromYaml | toYaml }}
{{- end }}
{{- end }}
