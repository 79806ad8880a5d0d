package verify

// WithoutShortcutChecks runs f with the checks of CheckStoredObjects off
// (noTestChecks), and turns them back on as they were. The rule-removal
// tests run the pairs of a translation already judged with the checks
// on, once per removed rule: the same objects, stored and validated
// against a CRD that differs by one rule, are checked by the run of the
// whole translation.
func WithoutShortcutChecks(f func()) {
	defer noTestChecks()()
	f()
}
