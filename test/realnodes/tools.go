//go:build tools

// Package tools records the upstream node components this module builds (see build.sh):
// the kubelet and kube-proxy of the same Kubernetes release as test/envtest's control plane.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-proxy"
	_ "k8s.io/kubernetes/cmd/kubelet"
)
