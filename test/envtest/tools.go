//go:build tools

// Package tools records the upstream commands this module builds (see build.sh).
package tools

import (
	_ "github.com/kubernetes-csi/external-provisioner/v6/cmd/csi-provisioner"
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
