package manifest_test

import (
	"fmt"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/manifest"
)

func ExampleDocument_Apply() {
	in := `# kept
kind: Example
schema:
  properties:
    name:
      type: string
      x-kubernetes-mutability: Immutable   # replaced by the rule
    size:
      type: integer
`
	f, err := manifest.Parse("example.yaml", []byte(in))
	if err != nil {
		panic(err)
	}
	err = f.Docs[0].Apply([]edit.Edit{{
		Path:     []interface{}{"schema", "properties", "name"},
		Remove:   []string{"x-kubernetes-mutability"},
		AddRules: []edit.Rule{{Rule: "self == oldSelf", Message: "name is immutable"}},
	}})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(f.Bytes()))
	// Output:
	// # kept
	// kind: Example
	// schema:
	//   properties:
	//     name:
	//       type: string
	//       x-kubernetes-validations:
	//       - message: name is immutable
	//         rule: self == oldSelf
	//     size:
	//       type: integer
}
