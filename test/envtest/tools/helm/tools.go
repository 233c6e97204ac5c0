//go:build tools

// Package tools records the upstream command this module builds (see ../../build.sh).
package tools

import _ "helm.sh/helm/v4/cmd/helm"
