// Package limits holds the limits mut2cel puts on what it reads, so that
// input no real CRD resembles fails at once with exit status 2 and a
// message, instead of exhausting memory or time. docs/limits.md says why
// each value was chosen and what real CRDs measure against it; every
// reader takes its limit from here.
package limits

const (
	// InputBytes is the most mut2cel reads in one run, all inputs and
	// declarations files together: four times the 19 MB corpus of real
	// CRDs, and twenty times its largest file. A CRD the apiserver stores
	// is at most 1.5 MiB (etcd's request limit).
	InputBytes = 64 << 20

	// Values is the most YAML or JSON values (mapping keys, mapping
	// values and list items) one run reads, estimated before parsing
	// (Estimate): about 500 bytes of memory each once parsed and decoded.
	// The whole corpus in one file estimates at 614,000.
	Values = 2_000_000

	// Nesting is the most levels of collections (mappings and lists) one
	// YAML or JSON document may nest: the limit of the YAML parsers
	// mut2cel reads with, which encoding/json and mut2cel's JSON reader
	// share. A schema that references expand (frontend/builtin) is held
	// to it too, as the document it becomes.
	Nesting = 10_000

	// Declarations is the most declarations one CRD may make, over all
	// its versions. The apiserver checks the fieldPath of every rule by
	// converting the whole schema again, so the work of validating a CRD
	// grows with the square of its declarations: 1,000 take 9 seconds.
	Declarations = 1000

	// DeclarationDepth is the most steps a declared path may have. Rules
	// on a path nest about one CEL call per step, and CEL's parser stops
	// at 250 levels; the deepest schema node of the corpus is 18 steps
	// down.
	DeclarationDepth = 100

	// VerifyHeap is the heap size past which verify collects garbage as
	// often as it takes to stay under it (a soft limit, GOMEMLIMIT). The
	// apiserver's CEL evaluation allocates, on every field lookup, a map
	// of the object's property schemas, so the garbage per pair grows
	// with the declarations of a node while the live heap stays small.
	VerifyHeap = 1 << 30
)
