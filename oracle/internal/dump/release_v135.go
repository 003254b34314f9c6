//go:build !kcompat_pre135

package dump

import (
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/component-base/featuregate"
)

// clientRecorder is a client-go VersionedRegistry that only records which names client-go registers.
type clientRecorder map[string]bool

func (r clientRecorder) AddVersioned(in map[clientfeatures.Feature]clientfeatures.VersionedSpecs) error {
	for name := range in {
		r[string(name)] = true
	}
	return nil
}

// clientGoNames: the gates client-go hands to a component's gate (1.35+: versioned).
func clientGoNames() map[string]bool {
	client := clientRecorder{}
	if err := clientfeatures.AddVersionedFeaturesToExistingFeatureGates(client); err != nil {
		panic(err)
	}
	return client
}

// dependencies: the gate's dependency map (featuregate AddDependencies, 1.35+).
func dependencies(fg featuregate.MutableVersionedFeatureGate) map[featuregate.Feature][]featuregate.Feature {
	return fg.Dependencies()
}

// minCompatibility: the spec's MinCompatibilityVersion (1.35+), "" when unset.
func minCompatibility(sp featuregate.FeatureSpec) string {
	if sp.MinCompatibilityVersion == nil {
		return ""
	}
	return sp.MinCompatibilityVersion.String()
}
