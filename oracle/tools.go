//go:build tools

// The programs record.py builds besides this folder's own, listed so that `go mod tidy` keeps
// their modules in each modfile (the tools pattern; never compiled).
package main

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
