{{/*
Names, labels and paths shared by the templates.
*/}}

{{/* The chart name, overridable with nameOverride. */}}
{{- define "listener-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Prefix of every namespaced and cluster-scoped object name of this release: the release
name, or "<release>-<chart>" when the release name does not contain the chart name.
Truncated so that "<prefix>-provisioner" stays within 63 characters.
*/}}
{{- define "listener-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" }}
{{- else if contains (include "listener-operator.name" .) .Release.Name }}
{{- .Release.Name | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "listener-operator.name" .) | trunc 50 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "listener-operator.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "listener-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.labels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
The ServiceAccount a role runs as; call with (dict "root" $ "role" "controller").
serviceAccount.name: one account for both roles (upstream's way); else one per role.
*/}}
{{- define "listener-operator.serviceAccountName" -}}
{{- if .root.Values.serviceAccount.name }}
{{- .root.Values.serviceAccount.name }}
{{- else }}
{{- printf "%s-%s" (include "listener-operator.fullname" .root) .role }}
{{- end }}
{{- end }}

{{/*
"true" when the OpenShift pieces are rendered: openshift.securityContextConstraints true,
or auto and the cluster serves security.openshift.io/v1.
*/}}
{{- define "listener-operator.openshift" -}}
{{- $scc := .Values.openshift.securityContextConstraints }}
{{- if or (eq (toString $scc) "true") (and (eq (toString $scc) "auto") (.Capabilities.APIVersions.Has "security.openshift.io/v1")) }}true{{ end }}
{{- end }}

{{/* The name of the node plugin's SecurityContextConstraints. */}}
{{- define "listener-operator.sccName" -}}
{{- printf "%s-node" (include "listener-operator.fullname" .) }}
{{- end }}

{{/* Selector labels of one component; call with (dict "root" $ "component" "controller"). */}}
{{- define "listener-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "listener-operator.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* The operator image reference. */}}
{{- define "listener-operator.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The CSI driver name: fixed by the wire contract (docs/spec.md §4), not configurable. */}}
{{- define "listener-operator.driverName" -}}
listeners.stackable.tech
{{- end }}

{{/* The kubelet root directory without a trailing slash. */}}
{{- define "listener-operator.kubeletDir" -}}
{{- .Values.kubeletDir | trimSuffix "/" }}
{{- end }}

{{/* Host directory of the node plugin's socket, where the kubelet looks for it. */}}
{{- define "listener-operator.pluginDir" -}}
{{- printf "%s/plugins/%s/" (include "listener-operator.kubeletDir" .) (include "listener-operator.driverName" .) }}
{{- end }}

{{/* Settings both roles read (docs/spec.md §6). */}}
{{- define "listener-operator.commonEnv" -}}
- name: CSI_ENDPOINT
  value: /csi/csi.sock
- name: KUBERNETES_CLUSTER_DOMAIN
  value: {{ .Values.clusterDomain | quote }}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: LOG_FORMAT
  value: {{ .Values.logFormat | quote }}
{{- include "listener-operator.telemetryEnv" . }}
{{- end }}

{{/*
The container command when a role has nodeFlags: the image's ENTRYPOINT (Dockerfile)
with the flags between the Node binary and the script. V8's own flags (such as
--optimize-for-size) are refused in NODE_OPTIONS, so they go on the command line.
Call with (dict "flags" .Values.<role>.nodeFlags).
*/}}
{{- define "listener-operator.command" -}}
{{- concat (list "/nodejs/bin/node") .flags (list "/app/dist/bin/main.js") | toJson }}
{{- end }}

{{/*
The node containers' securityContext: node.securityContext, with the SELinux type spc_t
("super privileged container", allowed to write into the kubelet's pod directories) when
the OpenShift pieces are rendered and the user set no seLinuxOptions of their own.
*/}}
{{- define "listener-operator.nodeSecurityContext" -}}
{{- $context := deepCopy .Values.node.securityContext }}
{{- if and (include "listener-operator.openshift" .) (not (hasKey $context "seLinuxOptions")) }}
{{- $_ := set $context "seLinuxOptions" (dict "type" "spc_t") }}
{{- end }}
{{- toYaml $context }}
{{- end }}
