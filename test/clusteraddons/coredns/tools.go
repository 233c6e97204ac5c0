//go:build tools

// Package tools records the upstream program this module builds (see ../build.sh): CoreDNS
// with its default plugins (kubernetes among them).
package tools

import _ "github.com/coredns/coredns"
