//go:build tools

// Package tools records the upstream programs this module builds (see ../build.sh):
// MetalLB's controller and speaker.
package tools

import (
	_ "go.universe.tf/metallb/controller"
	_ "go.universe.tf/metallb/speaker"
)
