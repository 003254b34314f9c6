//go:build kcompat_pre135

package dump

import (
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/component-base/featuregate"
)

// clientRecorder is a client-go Registry that only records which names client-go registers.
type clientRecorder map[string]bool

func (r clientRecorder) Add(in map[clientfeatures.Feature]clientfeatures.FeatureSpec) error {
	for name := range in {
		r[string(name)] = true
	}
	return nil
}

// clientGoNames: the gates client-go hands to a component's gate (1.31-1.34: unversioned, at 0.0).
func clientGoNames() map[string]bool {
	client := clientRecorder{}
	if err := clientfeatures.AddFeaturesToExistingFeatureGates(client); err != nil {
		panic(err)
	}
	return client
}

// dependencies: none before 1.35 (featuregate has no AddDependencies).
func dependencies(featuregate.MutableVersionedFeatureGate) map[featuregate.Feature][]featuregate.Feature {
	return nil
}

// minCompatibility: no per-spec min compatibility before 1.35.
func minCompatibility(featuregate.FeatureSpec) string { return "" }
