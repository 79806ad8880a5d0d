package translate

import (
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// Where the apiserver's CEL values differ from the stored JSON. The
// apiserver converts a stored object to CEL values lazily, node by node,
// in k8s.io/apiserver/pkg/cel/common (UnstructuredToVal); the cases here
// decide which rules mut2cel may emit.

// equalSeesProperty reports whether the apiserver's == on objects compares
// the property name under its own name. That == looks every stored
// property up through cel.Unescape, as if the name came from a rule: a
// name that reads as an escape is looked up as another property
// (x__dash__y as x-y, __namespace__ as namespace) or not at all (__meta__,
// __kind__, a__b__c), so its changes go unseen. Selecting such a property
// with its escaped name (self.__underscores__meta__underscores__) reads
// it correctly.
func equalSeesProperty(name string) bool {
	unescaped, ok := apiservercel.Unescape(name)
	return ok && unescaped == name
}
