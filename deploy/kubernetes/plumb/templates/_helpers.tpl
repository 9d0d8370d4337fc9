{{/* The release's full name: every object's name starts with it, so releases never collide. */}}
{{- define "plumb.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "plumb.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{- define "plumb.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "plumb.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selects this release's workers only: the instance label keeps releases apart. */}}
{{- define "plumb.workerSelector" -}}
app.kubernetes.io/name: {{ include "plumb.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: worker
{{- end -}}

{{- define "plumb.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "plumb.tokenSecret" -}}
{{- .Values.token.existingSecret | default (printf "%s-token" (include "plumb.fullname" .)) -}}
{{- end -}}

{{/* Each worker's URL by its stable StatefulSet name, comma-separated: the coordinator's --workers. */}}
{{- define "plumb.workerUrls" -}}
{{- $fullname := include "plumb.fullname" . -}}
{{- $urls := list -}}
{{- range $i := until (int .Values.workers.replicas) -}}
{{- $urls = append $urls (printf "http://%s-worker-%d.%s-workers.%s.svc:%d" $fullname $i $fullname $.Release.Namespace (int $.Values.workers.port)) -}}
{{- end -}}
{{- join "," $urls -}}
{{- end -}}
