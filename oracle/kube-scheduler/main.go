// Command kube-scheduler prints every feature gate kube-scheduler registers, as JSON (the same
// document as `oracle gates`): it links cmd/kube-scheduler/app and what the scheduler's main
// package links besides, builds the scheduler command as the binary does, then reads the gate.
package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"

	"kcompat.local/oracle/internal/dump"
)

func main() {
	app.NewSchedulerCommand()
	dump.Print(dump.Gates(utilfeature.DefaultMutableFeatureGate))
}
