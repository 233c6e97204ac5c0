{{/*
Upstream's telemetry values (its chart's `telemetry` block) as upstream's environment
variables, with the same meaning (docs/migration.md, "Settings"); the rolling log files go
to an emptyDir at /logs (the root filesystem is read-only).
*/}}
{{- define "listener-operator.telemetryEnv" }}
{{- with .Values.telemetry }}
{{- if not .consoleLog.enabled }}
- name: CONSOLE_LOG_DISABLED
  value: "true"
{{- end }}
{{- with .consoleLog.level }}
- name: CONSOLE_LOG_LEVEL
  value: {{ . | quote }}
{{- end }}
{{- with .consoleLog.format }}
- name: CONSOLE_LOG_FORMAT
  value: {{ . | quote }}
{{- end }}
{{- if .fileLog.enabled }}
- name: FILE_LOG_DIRECTORY
  value: /logs
{{- with .fileLog.level }}
- name: FILE_LOG_LEVEL
  value: {{ . | quote }}
{{- end }}
{{- with .fileLog.rotationPeriod }}
- name: FILE_LOG_ROTATION_PERIOD
  value: {{ . | quote }}
{{- end }}
{{- with .fileLog.maxFiles }}
- name: FILE_LOG_MAX_FILES
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- if .otelLogExporter.enabled }}
- name: OTEL_LOG_EXPORTER_ENABLED
  value: "true"
{{- with .otelLogExporter.level }}
- name: OTEL_LOG_EXPORTER_LEVEL
  value: {{ . | quote }}
{{- end }}
{{- with .otelLogExporter.endpoint }}
- name: OTEL_EXPORTER_OTLP_LOGS_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- if .otelTraceExporter.enabled }}
- name: OTEL_TRACE_EXPORTER_ENABLED
  value: "true"
{{- with .otelTraceExporter.level }}
- name: OTEL_TRACE_EXPORTER_LEVEL
  value: {{ . | quote }}
{{- end }}
{{- with .otelTraceExporter.endpoint }}
- name: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- range $name, $value := .env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}
{{- end }}
