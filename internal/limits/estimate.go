package limits

// EstimateValues bounds from above the number of values (mapping keys,
// mapping values, list items and document roots) a YAML or JSON stream
// holds, without parsing it: every value but the first root is introduced
// by one of the marks counted. A block list item follows "-", as does a
// document's "---"; a mapping pair has ":" or an explicit "?", and counts
// twice, key and value; an item or pair of a flow collection follows "[",
// "{" or ",". The same marks inside strings count too, which is why the
// bound exceeds the count of real CRDs by about half.
func EstimateValues(data []byte) int {
	n := 1
	for _, b := range data {
		n += int(weight[b])
	}
	return n
}

// weight is the number of values a byte may introduce.
var weight = [256]uint8{'-': 1, ':': 2, '?': 2, ',': 2, '[': 2, '{': 2}
