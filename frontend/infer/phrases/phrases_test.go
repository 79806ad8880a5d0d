package phrases

import (
	"strings"
	"testing"
)

// readOne reads a sentence as the table does: "reading" or "reading,
// doubt: ...", or "none".
func readOne(sentence, name, kind string, message bool, names ...string) string {
	ctx := Context{Name: name, Kind: kind, Message: message, Names: map[string]bool{}}
	for _, n := range names {
		ctx.Names[n] = true
	}
	st, ok := Read(sentence, ctx)
	if !ok {
		return "none"
	}
	s := map[Reading]string{Immutable: "immutable", SetOnce: "set once", RequiredOnceSet: "required once set"}[st.Reading]
	if st.Doubt != "" {
		s += ", doubt: " + st.Doubt
	}
	return s
}

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		sentence, name, kind string
		message              bool
		names                []string
		want                 string // the start of what readOne says
	}{
		{sentence: "This field is immutable.", want: "immutable"},
		{sentence: "The field is immutable.", want: "immutable"},
		{sentence: "Immutable.", want: "immutable"},
		{sentence: "Immutable after creation.", want: "immutable"},
		{sentence: "This field is not mutable and cannot be empty.", want: "immutable"},
		{sentence: "podSets cannot be changed.", name: "podSets", want: "immutable"},
		{sentence: "The controller name cannot be changed.", name: "controllerName", want: "immutable"},
		{sentence: "Cannot be updated.", want: "immutable"},
		{sentence: "This field cannot be modified.", want: "immutable"},
		{sentence: "This field is immutable after creation.", want: "immutable"},
		{sentence: "The value cannot be changed after the Widget is created.", kind: "widget", want: "immutable"},
		{sentence: "Populated by the webhook on creation and immutable.", want: "immutable"},
		{sentence: "It can only be set at creation time.", want: "immutable"},
		{sentence: "Updates to this field are forbidden.", want: "immutable"},
		{sentence: "This field is immutable, but an object of the same name may be recreated.", want: "immutable"},
		{sentence: "This field is immutable once set.", want: "set once"},
		{sentence: "This field will be immutable after it is initially set.", want: "set once"},
		{sentence: "Once set, this field cannot be changed.", want: "set once"},
		{sentence: "topologyName is immutable when topologyName is set", name: "topologyName", message: true, want: "set once"},
		{sentence: "parameters are immutable once set", name: "parameters", message: true, want: "set once"},
		{sentence: "volumeHandle is required once set", name: "volumeHandle", message: true, want: "required once set"},
		{sentence: "It may be set once.", want: "set once"},
		// No statement of this kind.
		{sentence: "Revision is an immutable snapshot of code and configuration.", want: "none"},
		{sentence: "Similar to a tag, but the SHA explicitly deploys an immutable container image.", want: "none"},
		{sentence: "This field is not immutable.", want: "none"},
		{sentence: "This field can be changed at any time.", want: "none"},
		{sentence: "Read-only.", want: "none"},
		{sentence: "Mounted read-only if true, read-write otherwise.", want: "none"},
		{sentence: "levels are mutable only when kubernetes.io/hostname is the lowest level", message: true, want: "none"},
		{sentence: "Cannot transition NodePool between static and dynamic modes", message: true, want: "none"},
		// Read, and not taken: written commented out.
		{sentence: "queueName cannot be changed while .status.admission is not null.", name: "queueName", want: "immutable, doubt: conditional"},
		{sentence: "state cannot be changed once it becomes Active", message: true, want: "immutable, doubt: conditional"},
		{sentence: "This field cannot be changed after the cluster is created.", kind: "widget", want: "immutable, doubt: conditional"},
		{sentence: "It is immutable unless the feature gate is on.", want: "immutable, doubt: conditional"},
		{sentence: "When the policy is Retain, this field cannot be changed.", want: "immutable, doubt: conditional"},
		{sentence: "This field may become immutable in a future release.", want: "immutable, doubt: hedged"},
		{sentence: "This field is immutable in a future release.", want: "immutable, doubt: hedged"},
		{sentence: "This field should not be changed.", want: "none"},
		{sentence: "This field should be treated as immutable.", want: "none"},
		{sentence: "This field is currently immutable.", want: "immutable, doubt: hedged"},
		{sentence: "This field cannot be changed by users.", want: "immutable, doubt: says who"},
		{sentence: "All fields within the CertificateRequest's `spec` are immutable after creation.", kind: "certificaterequest",
			names: []string{"spec"}, want: "immutable, doubt: it speaks of spec"},
		{sentence: "admission can be set back to null, but its fields cannot be changed once set.", name: "admission",
			want: "set once, doubt: it speaks of the fields inside"},
		{sentence: "The referenced Secret cannot be changed.", name: "secretRef", want: "immutable, doubt: it speaks of secret"},
		{sentence: "The selector and the template cannot be changed.", name: "replicas", names: []string{"selector", "template"},
			want: "immutable, doubt: it speaks of selector, template"},
	} {
		got := readOne(tc.sentence, tc.name, tc.kind, tc.message, tc.names...)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("Read(%q) = %q, want %q", tc.sentence, got, tc.want)
		}
	}
}

func TestSentenceSplitting(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"One. Two.", []string{"One.", "Two."}},
		{"At most 18. podSets cannot be changed.", []string{"At most 18.", "podSets cannot be changed."}},
		{"A domain (e.g. acme.io/foo) is used. The field is immutable.", []string{"A domain (e.g. acme.io/foo) is used.", "The field is immutable."}},
		{"Values:\n- A means a\n- B means b", []string{"Values:", "- A means a", "- B means b"}},
		{"First\nline goes on.\n\nNew paragraph", []string{"First line goes on.", "New paragraph"}},
		{"version 1.2.3 is out", []string{"version 1.2.3 is out"}},
	} {
		if got := Sentences(tc.text); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Sentences(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestQuoteBounds(t *testing.T) {
	long := strings.Repeat("é", 300)
	if got := Quote(long, 10); len([]rune(got)) != 10 || !strings.HasSuffix(got, "…") {
		t.Errorf("Quote of 300 runes to 10 = %q", got)
	}
	if got := Quote("a\n  b\tc", 10); got != "a b c" {
		t.Errorf("Quote kept the line breaks: %q", got)
	}
}

// TestCopiedBuiltinDocs checks the reading of Kubernetes' own
// documentation: a copy is left out, a rewritten sentence is kept.
func TestCopiedBuiltinDocs(t *testing.T) {
	copied := "List of environment variables to set in the Step. Cannot be updated."
	if where, ok := CopiedBuiltin(copied, "Cannot be updated."); !ok || where != "Container.env" {
		t.Errorf("CopiedBuiltin(%q) = %q, %v; want Container.env", copied, where, ok)
	}
	own := "UID contains the uid of the user that created the CertificateRequest. Populated by the cert-manager webhook on creation and immutable."
	if where, ok := CopiedBuiltin(own, "Populated by the cert-manager webhook on creation and immutable."); ok {
		t.Errorf("CopiedBuiltin took a rewritten sentence for a copy of %s", where)
	}
	if _, ok := CopiedBuiltin("strategy is the strategy to be used. This field is immutable.", "This field is immutable."); ok {
		t.Errorf("CopiedBuiltin took a CRD's own description for a copy")
	}
}

func TestMorePhrasings(t *testing.T) {
	for _, tc := range []struct{ sentence, want string }{
		{"The name of the pool (immutable).", "immutable"},
		{"Immutable field.", "immutable"},
		{"Changing this field after creation is not supported.", "immutable"},
		{"Updating the value is forbidden.", "immutable"},
		{"Changing this field is allowed.", "none"},
		{"Immutable snapshots are kept.", "none"},
		{"This is an immutable field.", "immutable"},
		{"Not updatable.", "immutable"},
		{"This field cannot be updated once the object is created.", "immutable"},
		{"It is immutable after Widget creation.", "immutable"},
		{"Once specified, this field cannot be changed.", "set once"},
		{"Immutable after set.", "set once"},
		{"Name of the resource. Changing this forces a new resource to be created.", "none"},
		{"The partitions cannot be decreased after creation.", "none"},
	} {
		if got := readOne(tc.sentence, "field", "widget", false); !strings.HasPrefix(got, tc.want) {
			t.Errorf("Read(%q) = %q, want %q", tc.sentence, got, tc.want)
		}
	}
}
