// Command oracle asks a released Kubernetes for its own data: it links the release's kube-apiserver
// packages as its main package does, builds the kube-apiserver command (whose options register the
// kube component), and prints as JSON what the registered gate, the API scheme and the resource
// config say. Nothing here is parsed from source. kube-scheduler/ and kube-controller-manager/ do
// the same for the other two control-plane components' gates.
//
//	oracle gates   every gate of kube-apiserver's feature gate: versioned specs, origin, dependencies
//	oracle apis    default enablement, scheme version priority and each kind's lifecycle
//
// The allowed version ranges are read from the real binary's --help by record.py.
package main

import (
	"fmt"
	"os"
	"sort"

	"kcompat.local/oracle/internal/dump"

	apiextensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serverstorage "k8s.io/apiserver/pkg/server/storage"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	aggregatorapiserver "k8s.io/kube-aggregator/pkg/apiserver"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/apiserver/scheme"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controlplane"
	"k8s.io/kubernetes/pkg/kubeapiserver"

	// what cmd/kube-apiserver/apiserver.go links besides app (the same in every bundled release)
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
)

// kubeGate is the gate of the kube component: utilfeature.DefaultMutableFeatureGate, which every
// release's kube-apiserver options register under the name "kube" (1.31-1.32:
// apiserver/pkg/util/version; 1.33+: component-base/compatibility), after the command is built.
func kubeGate() featuregate.MutableVersionedFeatureGate {
	app.NewAPIServerCommand()
	return utilfeature.DefaultMutableFeatureGate
}

func gates() any {
	return dump.Gates(kubeGate())
}

type kind struct {
	Server      string `json:"server"`
	Group       string `json:"group"`
	Version     string `json:"version"`
	Kind        string `json:"kind"`
	Introduced  string `json:"introduced,omitempty"`
	Deprecated  string `json:"deprecated,omitempty"`
	Removed     string `json:"removed,omitempty"`
	Replacement string `json:"replacement,omitempty"`
}

type introduced interface{ APILifecycleIntroduced() (int, int) }
type deprecated interface{ APILifecycleDeprecated() (int, int) }
type removed interface{ APILifecycleRemoved() (int, int) }
type replaced interface {
	APILifecycleReplacement() schema.GroupVersionKind
}

func mm(major, minor int) string { return fmt.Sprintf("%d.%d", major, minor) }

func gvString(gv schema.GroupVersion) string { return gv.String() }

// server is one of the three apiservers kube-apiserver chains: its scheme and default resource config.
type server struct {
	name   string
	scheme *runtime.Scheme
	config *serverstorage.ResourceConfig
}

func apis() any {
	servers := []server{
		{"kube-apiserver", legacyscheme.Scheme, controlplane.DefaultAPIResourceConfigSource()},
		{"apiextensions-apiserver", apiextensionsapiserver.Scheme, apiextensionsapiserver.DefaultAPIResourceConfigSource()},
		{"kube-aggregator", aggregatorscheme.Scheme, aggregatorapiserver.DefaultAPIResourceConfigSource()},
	}
	enabled := map[string]map[string]bool{}
	resources := map[string]map[string]bool{}
	priority := map[string][]string{}
	var kinds []kind
	for _, srv := range servers {
		enabled[srv.name] = map[string]bool{}
		resources[srv.name] = map[string]bool{}
		for gv, on := range srv.config.GroupVersionConfigs {
			enabled[srv.name][gvString(gv)] = on
		}
		for gvr, on := range srv.config.ResourceConfigs {
			resources[srv.name][gvString(gvr.GroupVersion())+" "+gvr.Resource] = on
		}
		for gvk := range srv.scheme.AllKnownTypes() {
			if gvk.Version == runtime.APIVersionInternal {
				continue
			}
			if srv.name != "kube-apiserver" && gvk.Group == "" {
				continue // meta types (Status, WatchEvent, options) every scheme registers
			}
			if _, ok := priority[gvk.Group]; !ok {
				for _, gv := range srv.scheme.PrioritizedVersionsForGroup(gvk.Group) {
					priority[gvk.Group] = append(priority[gvk.Group], gv.Version)
				}
			}
			obj, err := srv.scheme.New(gvk)
			if err != nil {
				continue
			}
			k := kind{Server: srv.name, Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
			if o, ok := obj.(introduced); ok {
				k.Introduced = mm(o.APILifecycleIntroduced())
			}
			if o, ok := obj.(deprecated); ok {
				k.Deprecated = mm(o.APILifecycleDeprecated())
			}
			if o, ok := obj.(removed); ok {
				k.Removed = mm(o.APILifecycleRemoved())
			}
			if o, ok := obj.(replaced); ok {
				if r := o.APILifecycleReplacement(); !r.Empty() {
					k.Replacement = r.GroupVersion().String() + "/" + r.Kind
				}
			}
			kinds = append(kinds, k)
		}
	}
	sort.Slice(kinds, func(i, j int) bool {
		a, b := kinds[i], kinds[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	var overrides []string
	for _, gvr := range kubeapiserver.NewStorageFactoryConfig().ResourceEncodingOverrides {
		overrides = append(overrides, gvString(gvr.GroupVersion())+" "+gvr.Resource)
	}
	return map[string]any{
		"groupVersionEnabled":      enabled,
		"resourceEnabled":          resources,
		"versionPriority":          priority,
		"kinds":                    kinds,
		"storageEncodingOverrides": overrides,
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: oracle gates|apis")
		os.Exit(2)
	}
	var v any
	switch os.Args[1] {
	case "gates":
		v = gates()
	case "apis":
		v = apis()
	default:
		fmt.Fprintln(os.Stderr, "usage: oracle gates|apis")
		os.Exit(2)
	}
	dump.Print(v)
}
