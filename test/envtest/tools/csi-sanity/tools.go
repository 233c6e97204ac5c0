//go:build tools

// Package tools records the upstream command this module builds (see ../../build.sh).
package tools

import _ "github.com/kubernetes-csi/csi-test/v5/cmd/csi-sanity"
