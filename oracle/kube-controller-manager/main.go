// Command kube-controller-manager prints every feature gate kube-controller-manager registers, as
// JSON (the same document as `oracle gates`): it links cmd/kube-controller-manager/app and what its
// main package links besides, builds the command as the binary does, then reads the gate.
package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"

	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"

	"kcompat.local/oracle/internal/dump"
)

func main() {
	app.NewControllerManagerCommand()
	dump.Print(dump.Gates(utilfeature.DefaultMutableFeatureGate))
}
