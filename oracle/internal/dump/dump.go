// Package dump prints what a registered feature gate holds, for every oracle program.
//
// What differs between releases is kept in two small files chosen by build tag (record.py sets
// -tags kcompat_pre135 for 1.31-1.34): release_v135.go (1.35+: Dependencies(), per-spec
// MinCompatibilityVersion, client-go's AddVersionedFeaturesToExistingFeatureGates) and
// release_pre135.go (1.31-1.34: no dependencies, no per-spec min compatibility, client-go's
// unversioned AddFeaturesToExistingFeatureGates).
package dump

import (
	"encoding/json"
	"os"
	"sort"

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
	client := clientGoNames()
	deps := dependencies(fg)
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
			s.MinCompatibilityVersion = minCompatibility(sp)
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

// Print writes v to standard output as indented JSON.
func Print(v any) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
}
