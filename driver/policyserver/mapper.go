package policyserver

import (
	"context"
	"encoding/json"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/restmapper"
)

// groupMapper is the plugin's REST mapper: client-go's discovery REST
// mapper over what the server's discovery says of the one API group
// asked about. The mapper of a kube-apiserver starts from the list of all
// groups (/apis), which the apiextensions-apiserver leaves to the
// kube-apiserver that embeds it and does not serve alone; it serves each
// group's discovery (/apis/<group> and /apis/<group>/<version>). Asking
// at each lookup sees a CRD installed since. The core group, which this
// server does not serve, maps nothing.
type groupMapper struct {
	disc discovery.DiscoveryInterface
}

var _ meta.RESTMapper = groupMapper{}

// of returns the discovery REST mapper of group.
func (m groupMapper) of(group string) (meta.RESTMapper, error) {
	raw, err := m.disc.RESTClient().Get().AbsPath("/apis", group).Do(context.Background()).Raw()
	if err != nil {
		return nil, err
	}
	g := &restmapper.APIGroupResources{VersionedResources: map[string][]metav1.APIResource{}}
	if err := json.Unmarshal(raw, &g.Group); err != nil {
		return nil, err
	}
	for _, v := range g.Group.Versions {
		list, err := m.disc.ServerResourcesForGroupVersion(v.GroupVersion)
		if err != nil {
			return nil, err
		}
		g.VersionedResources[v.Version] = list.APIResources
	}
	return restmapper.NewDiscoveryRESTMapper([]*restmapper.APIGroupResources{g}), nil
}

func (m groupMapper) KindFor(resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	g, err := m.of(resource.Group)
	if err != nil {
		return schema.GroupVersionKind{}, &meta.NoResourceMatchError{PartialResource: resource}
	}
	return g.KindFor(resource)
}

func (m groupMapper) KindsFor(resource schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	g, err := m.of(resource.Group)
	if err != nil {
		return nil, &meta.NoResourceMatchError{PartialResource: resource}
	}
	return g.KindsFor(resource)
}

func (m groupMapper) ResourceFor(input schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	g, err := m.of(input.Group)
	if err != nil {
		return schema.GroupVersionResource{}, &meta.NoResourceMatchError{PartialResource: input}
	}
	return g.ResourceFor(input)
}

func (m groupMapper) ResourcesFor(input schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	g, err := m.of(input.Group)
	if err != nil {
		return nil, &meta.NoResourceMatchError{PartialResource: input}
	}
	return g.ResourcesFor(input)
}

func (m groupMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	g, err := m.of(gk.Group)
	if err != nil {
		return nil, &meta.NoKindMatchError{GroupKind: gk, SearchedVersions: versions}
	}
	return g.RESTMapping(gk, versions...)
}

func (m groupMapper) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	g, err := m.of(gk.Group)
	if err != nil {
		return nil, &meta.NoKindMatchError{GroupKind: gk, SearchedVersions: versions}
	}
	return g.RESTMappings(gk, versions...)
}

// ResourceSingularizer is asked without a group: no group is searched.
func (m groupMapper) ResourceSingularizer(resource string) (string, error) {
	return "", &meta.NoResourceMatchError{PartialResource: schema.GroupVersionResource{Resource: resource}}
}
