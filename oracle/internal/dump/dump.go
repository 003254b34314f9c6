// Package dump prints what a registered feature gate holds, for both oracle programs.
package dump

import (
	"sort"

	clientfeatures "k8s.io/client-go/features"
	"k8s.io/component-base/featuregate"
)

type spec struct {
	Version                 string `json:"version"`
	Default                 bool   `json:"default"`
	LockToDefault           bool   `json:"lockToDefault"`
	PreRelease              string `json:"preRelease"`
	MinCompatibilityVersion string `json:"minCompatibilityVersion,omitempty"`
}

type gate struct {
	Name           string   `json:"name"`
	Origin         string   `json:"origin"`
	VersionedSpecs []spec   `json:"versionedSpecs"`
	Dependencies   []string `json:"dependencies,omitempty"`
}

// clientRecorder is a client-go VersionedRegistry that only records which names client-go registers.
type clientRecorder map[string]bool

func (r clientRecorder) AddVersioned(in map[clientfeatures.Feature]clientfeatures.VersionedSpecs) error {
	for name := range in {
		r[string(name)] = true
	}
	return nil
}

func stage(p featuregate.FeatureSpec) string {
	switch p.PreRelease {
	case featuregate.Alpha:
		return "Alpha"
	case featuregate.Beta:
		return "Beta"
	case featuregate.GA:
		return "GA"
	case featuregate.Deprecated:
		return "Deprecated"
	case featuregate.PreAlpha:
		return "PreAlpha"
	}
	return string(p.PreRelease)
}

// Gates lists every gate registered in fg (AllAlpha and AllBeta aside), each with its origin
// (client-go when client-go's own list registers it) and dependencies.
func Gates(fg featuregate.MutableVersionedFeatureGate) any {
	client := clientRecorder{}
	if err := clientfeatures.AddVersionedFeaturesToExistingFeatureGates(client); err != nil {
		panic(err)
	}
	deps := fg.Dependencies()
	var out []gate
	for name, specs := range fg.GetAllVersioned() {
		if name == "AllAlpha" || name == "AllBeta" {
			continue
		}
		g := gate{Name: string(name), Origin: "kube"}
		if client[string(name)] {
			g.Origin = "client-go"
		}
		for _, sp := range specs {
			s := spec{Version: sp.Version.String(), Default: sp.Default, LockToDefault: sp.LockToDefault, PreRelease: stage(sp)}
			if sp.MinCompatibilityVersion != nil {
				s.MinCompatibilityVersion = sp.MinCompatibilityVersion.String()
			}
			g.VersionedSpecs = append(g.VersionedSpecs, s)
		}
		for _, d := range deps[name] {
			g.Dependencies = append(g.Dependencies, string(d))
		}
		sort.Strings(g.Dependencies)
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
