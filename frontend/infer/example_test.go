package infer_test

import (
	"os"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/frontend/infer"
)

const widgets = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "!has(oldSelf.className) || has(self.className)"
              message: className is required once set
            - rule: "!(has(self.secretRef) && has(self.configMapRef))"
              message: secretRef and configMapRef are mutually exclusive
            properties:
              className:
                type: string
                description: The class of the widget. This field is immutable.
                x-kubernetes-validations:
                - rule: self == oldSelf
                  message: className is immutable
              region:
                type: string
                description: region cannot be changed while the widget is running.
              size:
                type: integer
                description: The size may be changed at any time.
              secretRef: {type: object}
              configMapRef: {type: object}
`

// Infer reads the rules and descriptions of a CRD and writes what they
// say as declarations, each with its evidence; what is not sure is
// commented out, saying why.
func ExampleInfer() {
	var doc map[string]interface{}
	if err := yaml.Unmarshal([]byte(widgets), &doc); err != nil {
		panic(err)
	}
	c, err := crd.Read(doc)
	if err != nil {
		panic(err)
	}
	r := infer.Infer(c)
	if err := infer.Write(os.Stdout, []*infer.Result{r}, infer.WriteOptions{MaxQuote: 60}); err != nil {
		panic(err)
	}
	// Output:
	// # widgets.example.com: declarations proposed from what the CRD says (docs/infer.md).
	// ---
	// apiVersion: mut2cel.io/v1alpha1
	// kind: Declarations
	// crd: widgets.example.com
	// fields:
	//   # version v1: rule "!(has(self.secretRef) && has(self.configMapRef))", message "secretRef and configMapRef are mutually exclusive": a choice among configMapRef, secretRef
	//   .spec:
	//     x-kubernetes-unions: [{"fields-to-discriminateBy": {"configMapRef": null, "secretRef": null}}]
	//   # version v1, on .spec: rule "!has(oldSelf.className) || has(self.className)", message "className is required once set": enforces [NoUnset]; the message reads required once set: [NoUnset]
	//   # version v1: rule "self == oldSelf", message "className is immutable": enforces [NoModify]; the message reads immutable: [NoSet, NoUnset, NoModify]
	//   # version v1: description "This field is immutable.": immutable: [NoSet, NoUnset, NoModify]
	//   # Note: the published rules enforce [NoUnset, NoModify]; the text says [NoSet, NoUnset, NoModify]
	//   # Note: a published rule lets the field be set after creation; the text says it may not
	//   .spec.className:
	//     x-kubernetes-mutability: Immutable
	//   # version v1: description "region cannot be changed while the widget is running.": immutable: [NoSet, NoUnset, NoModify] (not taken: conditional ("while the widget is running"): it holds only then)
	//   # Not sure, so commented out: version v1: conditional ("while the widget is running"): it holds only then
	//   # .spec.region:
	//   #   x-kubernetes-mutability: Immutable
}
