package validity

import (
	"regexp"

	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
)

// compileOpenAPI compiles the checks of s and below; root says s is the
// root of the schema.
func compileOpenAPI(s *spec.Schema, root bool) *onode {
	n := &onode{s: s}
	junctors := len(s.AllOf) > 0 || len(s.AnyOf) > 0 || len(s.OneOf) > 0 || s.Not != nil
	n.delegate = (root && junctors) || len(s.Dependencies) > 0 || len(s.PatternProperties) > 0 ||
		s.AdditionalItems != nil || s.UniqueItems || (s.Items != nil && len(s.Items.Schemas) > 0) || s.Ref.String() != ""
	if junctors && !n.delegate {
		n.compileJunctors(s)
	}
	n.compileScalar(s)
	n.compileNumber(s)
	if s.Items != nil && s.Items.Schema != nil {
		n.items = compileOpenAPI(s.Items.Schema, false)
	}
	n.minItems, n.maxItems = s.MinItems, s.MaxItems
	n.enum = s.Enum
	n.compileObject(s)
	return n
}

// compileJunctors compiles allOf, anyOf, oneOf and not.
func (n *onode) compileJunctors(s *spec.Schema) {
	for _, list := range []struct {
		from []spec.Schema
		to   *[]*onode
	}{{s.AnyOf, &n.anyOf}, {s.AllOf, &n.allOf}, {s.OneOf, &n.oneOf}} {
		for i := range list.from {
			*list.to = append(*list.to, compileOpenAPI(&list.from[i], false))
		}
	}
	if s.Not != nil {
		n.not = compileOpenAPI(s.Not, false)
	}
}

// compileScalar compiles the checks of typeValidator, stringValidator
// and formatValidator.
func (n *onode) compileScalar(s *spec.Schema) {
	n.typeApplies = len(s.Type) > 0 || s.Format != ""
	n.types, n.format = s.Type, s.Format
	n.nullOK = !(len(s.Type) > 0 && !s.Type.Contains(nullType) && !s.Nullable)
	n.hasNumber, n.hasInteger = s.Type.Contains(numberType), s.Type.Contains(integerType)

	n.maxLength, n.minLength = s.MaxLength, s.MinLength
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		n.pattern, n.patternBad = re, err != nil
	}
	n.formatChecked = strfmt.Default.ContainsName(s.Format)
}

// compileNumber compiles the checks of numberValidator, with its type and
// format (SchemaValidator.numberValidator).
func (n *onode) compileNumber(s *spec.Schema) {
	if len(s.Type) == 1 {
		switch s.Type[0] {
		case integerType:
			n.numType = integerType
			if s.Format == "int32" || s.Format == "int64" {
				n.numFormat = s.Format
			}
		case numberType:
			n.numType = numberType
			if s.Format == "float" || s.Format == "double" {
				n.numFormat = s.Format
			}
		}
	}
	// IsValueValidAgainstRange fails only for an integer type (a float
	// out of int64 range, or any number out of int32 with format int32)
	// or a number of format float out of float32 range.
	n.numRange = n.numType == integerType || (n.numType == numberType && n.numFormat == "float")
	n.multipleOf, n.maximum, n.minimum = s.MultipleOf, s.Maximum, s.Minimum
	n.exclMax, n.exclMin = s.ExclusiveMaximum, s.ExclusiveMinimum
	if s.MultipleOf != nil {
		n.multNative = validate.IsValueValidAgainstRange(*s.MultipleOf, n.numType, n.numFormat, "MultipleOf", "") == nil
	}
	if s.Maximum != nil {
		n.maxNative = validate.IsValueValidAgainstRange(*s.Maximum, n.numType, n.numFormat, "Maximum boundary", "") == nil
	}
	if s.Minimum != nil {
		n.minNative = validate.IsValueValidAgainstRange(*s.Minimum, n.numType, n.numFormat, "Minimum boundary", "") == nil
	}
}

// compileObject compiles the checks of objectValidator.
func (n *onode) compileObject(s *spec.Schema) {
	n.minProps, n.maxProps = s.MinProperties, s.MaxProperties
	n.required = s.Required
	if len(s.Properties) > 0 {
		n.props = make(map[string]*onode, len(s.Properties))
		for k := range s.Properties {
			p := s.Properties[k]
			n.props[k] = compileOpenAPI(&p, false)
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		if !ap.Allows {
			n.noAddl = true
		} else if ap.Schema != nil {
			n.addl = compileOpenAPI(ap.Schema, false)
		}
	}
}
