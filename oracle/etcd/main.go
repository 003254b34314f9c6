// Command etcd is etcd's own server (go.etcd.io/etcd/server/v3 etcdmain), at the version the pinned
// Kubernetes release requires, for the kube-apiservers that record answers.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
