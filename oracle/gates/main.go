// Command gates prints every feature gate kube-apiserver registers, without linking kube-apiserver:
// the init() of k8s.io/kubernetes/pkg/features (kube, staging and client-go gates and the dependency
// map) and of k8s.io/controller-manager/pkg/features/register, then the two calls kube-apiserver
// makes itself (logsapi.AddFeatureGates in cmd/kube-apiserver/app, metrics features in
// k8s.io/apiserver/pkg/server). It builds in seconds, so every patch release can be asked;
// record.py checks that it prints exactly what the full oracle prints wherever both are built.
package main

import (
	"encoding/json"
	"os"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"
	metricsfeatures "k8s.io/component-base/metrics/features"
	_ "k8s.io/controller-manager/pkg/features/register"
	_ "k8s.io/kubernetes/pkg/features"

	"kcompat.local/oracle/internal/dump"
)

func main() {
	fg := utilfeature.DefaultMutableFeatureGate.(featuregate.MutableVersionedFeatureGate)
	if err := logsapi.AddFeatureGates(fg); err != nil {
		panic(err)
	}
	if err := metricsfeatures.AddFeatureGates(fg); err != nil {
		panic(err)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(dump.Gates(fg)); err != nil {
		panic(err)
	}
}
