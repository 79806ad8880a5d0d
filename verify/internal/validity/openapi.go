package validity

import (
	"reflect"
	"regexp"
	"unicode/utf8"

	"github.com/go-openapi/swag"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
)

// The schema validation of kube-openapi (k8s.io/kube-openapi/pkg/validation/validate),
// compiled once per schema node. The apiserver's validator builds eight
// value validators for every value it visits and walks every property of
// the schema at every object; this walks the value. Each check below
// mirrors one of kube-openapi's, named beside it, on the spec.Schema the
// apiserver converts the CRD's schema to (with the formats it does not
// support stripped), and only decides whether a value passes: the
// messages are kube-openapi's own, run where a value does not pass.
// What is not mirrored (dependencies, patternProperties, tuples of items,
// additionalItems, uniqueItems, and allOf, anyOf, oneOf and not at the
// root, where the messages of what they hold could start with the marker
// kube-openapi keeps such messages by: rare in CRDs) is validated by
// kube-openapi itself, on the value of the node that holds it: its
// validation of a value depends on nothing but the value and the node's
// schema.

// onode is one schema node's checks.
type onode struct {
	s *spec.Schema
	// delegate: kube-openapi validates values of this node itself.
	delegate bool

	// typeValidator
	typeApplies bool // len(Type) > 0 || Format != ""
	types       spec.StringOrArray
	format      string
	nullOK      bool // a null passes the type check
	hasNumber   bool // Type holds "number"
	hasInteger  bool // Type holds "integer"

	// stringValidator and formatValidator
	maxLength, minLength *int64
	pattern              *regexp.Regexp
	patternBad           bool // the pattern does not compile: no string passes
	formatChecked        bool // strfmt.Default knows the format

	// numberValidator
	numType, numFormat   string
	numRange             bool // some values fail IsValueValidAgainstRange
	multipleOf           *float64
	maximum, minimum     *float64
	exclMax, exclMin     bool
	multNative           bool // IsValueValidAgainstRange accepts multipleOf
	maxNative, minNative bool // ... maximum, minimum

	// schemaSliceValidator
	items              *onode
	minItems, maxItems *int64

	// basicCommonValidator
	enum []interface{}

	// schemaPropsValidator: a value passes anyOf when it passes one of
	// the schemas, allOf when it passes all, oneOf when it passes exactly
	// one, not when it does not pass it. Kube-openapi's other errors of
	// them (the best failures, the messages it keeps) are errors only
	// where the value fails them anyway.
	anyOf, allOf, oneOf []*onode
	not                 *onode

	// objectValidator
	minProps, maxProps *int64
	required           []string
	props              map[string]*onode
	addl               *onode // AdditionalProperties.Schema, where additional properties are allowed
	noAddl             bool   // AdditionalProperties != nil && !Allows
}

const (
	integerType = "integer"
	numberType  = "number"
	nullType    = "null"
)

// kubeOpenAPI runs kube-openapi's own validation of v against the node's
// schema, as the apiserver runs it at the root (validate.SchemaValidator).
func (n *onode) kubeOpenAPI(v interface{}) bool {
	return validate.NewSchemaValidator(n.s, nil, "", strfmt.Default).Validate(v).IsValid()
}

// valid reports whether kube-openapi's validation of v against the node
// finds no error: v and everything below it.
func (n *onode) valid(v interface{}) bool {
	return n.validHere(v) && n.validBelow(v)
}

// validBelow reports whether every value held by the object or list v
// is valid against its schema; nodes that delegate have validated all of
// v in validHere.
func (n *onode) validBelow(v interface{}) bool {
	if n.delegate {
		return true
	}
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			if c := n.child(k); c != nil && !c.valid(e) {
				return false
			}
		}
	case []interface{}:
		if n.items != nil {
			for _, e := range x {
				if !n.items.valid(e) {
					return false
				}
			}
		}
	}
	return true
}

// child is the node kube-openapi validates the value of key k of an
// object of n against, nil for none (objectValidator.Validate).
func (n *onode) child(k string) *onode {
	if n == nil {
		return nil
	}
	if p, ok := n.props[k]; ok {
		return p
	}
	if n.noAddl {
		return nil
	}
	return n.addl
}

// validHere reports whether v passes the checks of the node itself: all
// but those of the values an object or list holds. A node that delegates
// validates v whole.
func (n *onode) validHere(v interface{}) bool {
	if n.delegate {
		return n.kubeOpenAPI(v)
	}
	if v == nil {
		// SchemaValidator.Validate: the type and common validators alone.
		return n.nullOK && len(n.enum) == 0
	}
	return n.junctorsOK(v) && n.ownOK(v)
}

// junctorsOK is schemaPropsValidator.Validate finding no error, without
// dependencies.
func (n *onode) junctorsOK(v interface{}) bool {
	if len(n.anyOf) > 0 {
		ok := false
		for _, b := range n.anyOf {
			if b.valid(v) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if len(n.oneOf) > 0 {
		passed := 0
		for _, b := range n.oneOf {
			if b.valid(v) {
				passed++
			}
		}
		if passed != 1 {
			return false
		}
	}
	for _, b := range n.allOf {
		if !b.valid(v) {
			return false
		}
	}
	return n.not == nil || !n.not.valid(v)
}

// ownOK is validHere but for junctors, on a value that is not null.
func (n *onode) ownOK(v interface{}) bool {
	switch x := v.(type) {
	case map[string]interface{}:
		return n.typeOK("object", "", v) && n.enumOK(v) && n.objectOK(x)
	case []interface{}:
		return n.typeOK("array", "", v) && n.enumOK(v) && n.sliceOK(x)
	case string:
		return n.typeOK("string", "", v) && n.enumOK(v) && n.stringOK(x)
	case bool:
		return n.typeOK("boolean", "", v) && n.enumOK(v)
	case int64:
		return n.typeOK(integerType, "int64", v) && n.enumOK(v) && n.numberOK(v)
	case float64:
		return n.typeOK(numberType, "float64", v) && n.enumOK(v) && n.numberOK(v)
	}
	return n.kubeOpenAPI(v) // no decoder of JSON makes such a value
}

// typeOK is typeValidator.Validate for a value of the JSON type schType
// and format (typeValidator.schemaInfoForType) that is not null.
func (n *onode) typeOK(schType, format string, v interface{}) bool {
	if !n.typeApplies {
		return true
	}
	isFloatInt := false
	if schType == numberType {
		isFloatInt = swag.IsFloat64AJSONInteger(v.(float64)) && n.hasInteger
	}
	isIntFloat := schType == integerType && n.hasNumber
	stringOrSlice := schType == "string" || schType == "array"
	if !stringOrSlice && n.format != "" && !(n.types.Contains(schType) || format == n.format || isFloatInt || isIntFloat) {
		return false
	}
	if !(n.hasNumber || n.hasInteger) && n.format != "" && stringOrSlice {
		return true
	}
	return n.types.Contains(schType) || isFloatInt || isIntFloat
}

// enumOK is basicCommonValidator.Validate.
func (n *onode) enumOK(data interface{}) bool {
	if len(n.enum) == 0 {
		return true
	}
	if s, ok := data.(string); ok {
		for _, e := range n.enum {
			if es, ok := e.(string); ok && es == s {
				return true
			}
		}
		// A string converts to no type but string (and []byte, []rune,
		// which no enum value of JSON is): no other value matches.
		for _, e := range n.enum {
			if _, ok := e.(string); !ok && reflect.TypeOf(e) != nil && reflect.TypeOf(data).ConvertibleTo(reflect.TypeOf(e)) {
				return enumReflect(data, n.enum)
			}
		}
		return false
	}
	return enumReflect(data, n.enum)
}

// enumReflect is basicCommonValidator.Validate as kube-openapi writes it.
func enumReflect(data interface{}, enum []interface{}) bool {
	for _, enumValue := range enum {
		actualType := reflect.TypeOf(enumValue)
		if actualType != nil {
			expectedValue := reflect.ValueOf(data)
			if expectedValue.IsValid() && expectedValue.Type().ConvertibleTo(actualType) {
				if reflect.DeepEqual(expectedValue.Convert(actualType).Interface(), enumValue) {
					return true
				}
			}
		}
	}
	return false
}

// stringOK is stringValidator.Validate and formatValidator.Validate.
func (n *onode) stringOK(s string) bool {
	if n.maxLength != nil || n.minLength != nil {
		l := int64(utf8.RuneCountInString(s))
		if n.maxLength != nil && l > *n.maxLength {
			return false
		}
		if n.minLength != nil && l < *n.minLength {
			return false
		}
	}
	if n.patternBad || (n.pattern != nil && !n.pattern.MatchString(s)) {
		return false
	}
	if n.formatChecked && !strfmt.Default.Validates(n.format, s) {
		return false
	}
	return true
}

// numberOK is numberValidator.Validate.
func (n *onode) numberOK(v interface{}) bool {
	if n.numRange {
		if _, isInt := v.(int64); !isInt || n.numFormat == "int32" || n.numType != integerType {
			if validate.IsValueValidAgainstRange(v, n.numType, n.numFormat, "Checked", "") != nil {
				return false
			}
		}
	}
	// A bound that IsValueValidAgainstRange refuses for the type and
	// format is an error of its own, whatever the value: it stays in
	// numberValidator's result beside the float comparison.
	if n.multipleOf != nil && (!n.multNative || validate.MultipleOfNativeType("", "", v, *n.multipleOf) != nil) {
		return false
	}
	if n.maximum != nil && (!n.maxNative || validate.MaximumNativeType("", "", v, *n.maximum, n.exclMax) != nil) {
		return false
	}
	if n.minimum != nil && (!n.minNative || validate.MinimumNativeType("", "", v, *n.minimum, n.exclMin) != nil) {
		return false
	}
	return true
}

// sliceOK is schemaSliceValidator.Validate but for the items.
func (n *onode) sliceOK(l []interface{}) bool {
	size := int64(len(l))
	if n.minItems != nil && size < *n.minItems {
		return false
	}
	if n.maxItems != nil && size > *n.maxItems {
		return false
	}
	return true
}

// objectOK is objectValidator.Validate but for the values of the keys.
func (n *onode) objectOK(m map[string]interface{}) bool {
	numKeys := int64(len(m))
	if n.minProps != nil && numKeys < *n.minProps {
		return false
	}
	if n.maxProps != nil && numKeys > *n.maxProps {
		return false
	}
	if n.noAddl {
		for k := range m {
			if _, ok := n.props[k]; !ok {
				return false
			}
		}
	}
	for _, k := range n.required {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}
