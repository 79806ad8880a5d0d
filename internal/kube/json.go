package kube

import utiljson "k8s.io/apimachinery/pkg/util/json"

// unmarshalJSON decodes numbers as the apiserver does: integers as int64,
// everything else as float64.
func unmarshalJSON(data []byte, v interface{}) error {
	return utiljson.Unmarshal(data, v)
}
