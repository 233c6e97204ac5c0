//go:build tools

// Package tools records the trace collector the real-node e2e exports to (see build.sh):
// Jaeger v2, an OpenTelemetry Collector distribution with trace storage and a query API.
package tools

import (
	_ "github.com/jaegertracing/jaeger/cmd/jaeger"
)
