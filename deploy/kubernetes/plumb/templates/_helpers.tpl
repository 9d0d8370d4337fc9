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

{{/*
The Secret holding the token. The chart generates no token: a random one would differ on every
render (helm template, Argo CD, helm diff), since lookup sees no cluster there.
*/}}
{{- define "plumb.tokenSecret" -}}
{{- if .Values.token.existingSecret -}}
{{- .Values.token.existingSecret -}}
{{- else if .Values.token.value -}}
{{- printf "%s-token" (include "plumb.fullname" .) -}}
{{- else -}}
{{- fail "token: set token.existingSecret to a Secret with the key \"token\" (make one: kubectl create secret generic plumb-token --from-literal=token=$(openssl rand -hex 32)), or set token.value" -}}
{{- end -}}
{{- end -}}

{{- define "plumb.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "plumb.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* The claim /results lives on, or "" for the pod's own emptyDir. */}}
{{- define "plumb.resultsClaim" -}}
{{- if and .Values.persistence.create .Values.persistence.existingClaim -}}
{{- fail "persistence: set persistence.create or persistence.existingClaim, not both" -}}
{{- end -}}
{{- if .Values.persistence.existingClaim -}}
{{- .Values.persistence.existingClaim -}}
{{- else if .Values.persistence.create -}}
{{- printf "%s-results" (include "plumb.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/* What every pod of the chart shares: its account, no API token, its security context. */}}
{{- define "plumb.podCommon" -}}
serviceAccountName: {{ include "plumb.serviceAccountName" . }}
automountServiceAccountToken: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.podSecurityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Scheduling of one component's pods: CONTEXT is the component's values. */}}
{{- define "plumb.scheduling" -}}
{{- with .priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Each worker's URL by its stable StatefulSet name, comma-separated: the coordinator's --workers. */}}
{{- define "plumb.workerUrls" -}}
{{- $fullname := include "plumb.fullname" . -}}
{{- $urls := list -}}
{{- $scheme := ternary "https" "http" (ne .Values.workers.tls.secretName "") -}}
{{- range $i := until (int .Values.workers.replicas) -}}
{{- $urls = append $urls (printf "%s://%s-worker-%d.%s-workers.%s.svc:%d" $scheme $fullname $i $fullname $.Release.Namespace (int $.Values.workers.port)) -}}
{{- end -}}
{{- join "," $urls -}}
{{- end -}}
