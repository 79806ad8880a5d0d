package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/pflag"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"

	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
)

var verifyCommand = &command{
	name: "verify", args: "[flags] [PATH...] | --policy|--normalize --builtin GROUP/VERSION/KIND [--openapi FILE] [flags]",
	summary: "check rules against the declarations on generated updates",
	help: `Checks that the x-kubernetes-validations rules of CRDs enforce their
mutability declarations exactly as docs/semantics.md says. For every CRD in
PATH that has declarations, and every version it serves, verify generates
updates of custom resources, runs both objects through the apiserver's
storage pipeline (pruning, null dropping, defaulting, the JSON round trip of
the old object), and compares the verdict of the rules, run by the
apiserver's CEL validator, with the verdict of the reference checker.

Rules of PATH's own (those translate did not generate) deny on both sides:
the reference verdict is that the checker and those rules allow the
update, as the apiserver composes rules (docs/verify.md).

Without --against, the rules checked are mut2cel's translation of PATH,
made as translate makes it with the same flags (--declarations,
--markers, --kube-version and the bound flags). With --against, they are
those of the CRD with the same metadata.name in TRANSLATED: a hand-edited
translation, or one made by another tool; verify then translates
nothing, and refuses the bound flags.
With --policy, the judge is the ValidatingAdmissionPolicies that mut2cel
policy writes for PATH (with the same flags), evaluated by the apiserver's
admission-policy code in process after the CRD's own rules; with
--against-policy FILE, the ValidatingAdmissionPolicies of FILE that match
updates of the CRD's resource, hand-written or made by another tool
(policies with parameters are refused; the bindings of FILE are not
read: each policy denies). The report is the same, and the policy's
verdict is shown where the rules' would be.
With --normalize, verify checks the MutatingAdmissionPolicies that mut2cel
policy writes to normalize the unions of PATH instead: each generated pair
is a create of its new object and an update, normalized by the policy
with the apiserver's mutating-policy code and by the reference normalizer
of docs/semantics.md 11.7; a line per version counts them, and the first
disagreement of a version is printed with both results. Inputs without a
union are an error, a union the policy cannot normalize too.
With --builtin GROUP/VERSION/KIND (and --openapi FILE), taken as mut2cel
policy takes them, verify checks the policies of built-in kinds, or of
kinds a cluster's OpenAPI document describes: with --policy,
--against-policy or --normalize only, as such a kind has no CRD rules.
The policies are written, and the updates sent, for the kind itself; the
pairs are generated from its schema as for a CRD. PATH may then be left
out.
--policy, --against-policy and --normalize run the apiserver's
admission-policy code, which weighs a third of the binary: only a mut2cel
built with the server tag has it, as for --server below.
With --all-versions, the declarations of each served version are first
applied to every other served version where the path exists, as translate
--all-versions does, and every version is held to them. A CRD under test
that translate wrote and that records declarations for a version PATH
leaves undeclared gets a warning: it was most often translated with
--all-versions, and its rules there disagree with a run without it.

PATH is a regular file, or a directory searched recursively for *.yaml,
*.yml and *.json files. "-" or no PATH reads standard input, the only way
to read a pipe or a device: a PATH that is one is an error, as is a PATH,
or standard input, that holds no manifest. Documents that are not CRDs
are skipped, and counted on standard error, one line an input; inputs
that hold no CRD at all, or no CRD with declarations, are an error:
nothing checked is not a check passed.

With --server, the verdict of the rules is that of a real
apiextensions-apiserver (Kubernetes 1.37) with an embedded etcd, started in
this process and stopped at the end: each update is a create of the old
object and an update to the new one, through the server's whole request
path. Pairs the server refuses whatever the rules say (objects that fail
the schema) are not counted as denials. Nothing is downloaded. It judges at
most a few hundred pairs per second, against thousands in process: use a
smaller --pairs. With --policy or --against-policy, the server's
admission chain runs the apiserver's ValidatingAdmissionPolicy plugin on
the policies, after the CRD's own rules, as a kube-apiserver does. With
--normalize, its MutatingAdmissionPolicy plugin runs the normalizing
policy on each request, the old object of an update being created
untouched, and what the server stored is compared with the reference's
object: a request the server refuses whatever the policy does (its schema
or the CRD's own rules refuse the old object or the reference's) is set
aside and counted, and more than 5% set aside fails the run. The plugins
read the policies from memory: this server serves no admission API. The
apiserver and etcd almost double the size of the binary, so only a
mut2cel built with the server tag has them; from a clone of mut2cel:
go install -tags server ./cmd/mut2cel

For each version a line reports the pairs generated, how many were
judged, and the disagreements; a table gives, per declaration, the judged
pairs that exercised it, those that break it, and the disagreements. A
pair is judged only when the apiserver accepts both objects; the others
are set aside, counted by the apiserver's first refusal, with one example
each. Disagreements are grouped: by the constraint the rules let through
(NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem of a declaration), or
by the rule that denies or fails. The first pair of each of the first
--counterexamples groups is shrunk and printed as a YAML document with
both verdicts, the rules involved and the old and new objects, after a
comment naming its group. With -o json or -o yaml, one document holds
every CRD, version, cause, group, counterexample, set-aside reason and,
per declaration and constraint, the pairs that tested it
(docs/verify.md). When standard error is a terminal, a run longer than a
second reports there, once a second, how many pairs are done (-q: never).
Memory does not grow with --pairs: the pairs are judged in batches. It
grows with the declarations on one node, and verify keeps its heap under
a soft limit of 1 GiB, unless GOMEMLIMIT is set (docs/limits.md).

A run fails (exit status 1) when it finds a disagreement, and also when it
did not check what it claims to: a declaration that no judged pair
exercised, a constraint that no judged pair breaks (so the rules that
enforce it were never put to the test), or more than 5% of a version's
pairs set aside. Each is named.

When the apiserver of --server fails (it does not start, refuses a CRD
that its validation in process accepts, or stops answering), the run
could not be done: the exit status is 2, as for an input that cannot be
read, translated or matched, or for --server given to a binary built
without it.
`,
	finding: "the rules and the declarations disagree on some update, or the run left a declaration or constraint unchecked",
}

// verifyOptions are the flags of verify.
type verifyOptions struct {
	inputs  translateInputFlags
	pairs   int
	seed    int64
	against string
	// policy judges through the validating policies mut2cel policy
	// writes; againstPolicy through those of a manifest.
	policy        bool
	againstPolicy string
	// normalize holds the normalizing policies to the reference.
	normalize bool
	// builtins and openapi add built-in kinds, as policy's flags do.
	builtins, openapi []string
	quiet             bool
	jobs              int
	server            bool
	examples          int
	output            string
}

func init() {
	verifyCommand.flags = func() *pflag.FlagSet { return verifyFlags(&verifyOptions{}) }
	verifyCommand.run = runVerify
}

func verifyFlags(o *verifyOptions) *pflag.FlagSet {
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	o.inputs.register(fs, "verify", nil)
	fs.IntVar(&o.pairs, "pairs", verifyrun.DefaultPairs, "updates checked per CRD version")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the generated updates; the same seed checks the same updates")
	fs.StringVar(&o.against, "against", "", "verify the CRDs in this manifest instead of the translation of PATH")
	fs.BoolVar(&o.policy, "policy", false, "judge with the ValidatingAdmissionPolicies mut2cel policy writes for PATH instead of the CRD's rules (needs a build with -tags server)")
	fs.StringVar(&o.againstPolicy, "against-policy", "", "judge with the ValidatingAdmissionPolicies of this manifest instead of the CRD's rules (needs a build with -tags server)")
	fs.BoolVar(&o.normalize, "normalize", false, "check the MutatingAdmissionPolicies mut2cel policy writes to normalize unions, against the reference normalizer (needs a build with -tags server)")
	fs.StringArrayVar(&o.builtins, "builtin", nil, "GROUP/VERSION/KIND of a built-in kind whose policies to verify (v1/Service in the core group); repeatable; with --policy, --against-policy or --normalize")
	fs.SetAnnotation("builtin", completeAnnotation, []string{completeFree})
	fs.StringArrayVar(&o.openapi, "openapi", nil, "OpenAPI v3 document of a group version, as kubectl get --raw /openapi/v3/apis/GROUP/VERSION prints it, to read the --builtin kinds from; repeatable")
	fs.SetAnnotation("openapi", completeAnnotation, []string{completeFiles})
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print no progress")
	fs.IntVar(&o.jobs, "jobs", runtime.GOMAXPROCS(0), "updates judged at once; the output does not depend on it")
	fs.BoolVar(&o.server, "server", false, "judge each update with a real apiextensions-apiserver started in this process (slower; needs a build with -tags server)")
	fs.IntVar(&o.examples, "counterexamples", 3, "groups of disagreements per version shown by a shrunk counterexample (0: none)")
	outputFlag(fs, &o.output, "output format: text, json or yaml", "text", "json", "yaml")
	return fs
}

// startServer starts the apiserver of verify --server; it is nil unless
// the binary is built with the server tag (verifyserver.go).
var startServer func(stderr io.Writer, opts *verifyrun.VerifyOptions, quiet bool) (stop func(), ok bool)

// startPolicyServer starts the apiserver of verify --server with the
// admission-policy plugins, for --policy, --against-policy and
// --normalize; nil unless the binary is built with the server tag.
var startPolicyServer verifyrun.StartPolicyServerFunc

// policyJudges evaluate policies in this process with the apiserver's
// admission-policy code, for --policy, --against-policy and --normalize;
// nil unless the binary is built with the server tag, as that code
// (about 20 MB) would make the default binary a third larger.
var policyJudges verifyrun.PolicyJudges

// installServer installs the mut2cel whose verify has --server.
const installServer = "go install -tags server ./cmd/mut2cel"

func runVerify(c *command, e *env, args []string) int {
	var o verifyOptions
	fs := verifyFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if usage := o.usage(fs); usage != "" {
		e.usageError(c, "%s", usage)
		return exitUsage
	}
	var handWritten []*admissionregistrationv1.ValidatingAdmissionPolicy
	if o.againstPolicy != "" {
		var err error
		if handWritten, err = verifyrun.ReadPolicies(o.againstPolicy); err != nil {
			fmt.Fprintf(e.stderr, "mut2cel verify: %v\n", err)
			return exitError
		}
	}
	builtins, usage, problems := inputs.Builtins(o.builtins, o.openapi)
	if usage != "" {
		e.usageError(c, "%s", usage)
		return exitUsage
	}
	start, usage := o.inputs.run(e, fs)
	if usage != "" {
		e.usageError(c, "%s", usage)
		return exitUsage
	}
	start.Problems = append(start.Problems, problems...)
	if len(start.Problems) > 0 {
		printDiags(e, start.Problems)
		return exitError
	}
	run := o.run(e, start)
	run.HandWritten, run.Builtins = handWritten, builtins
	if o.against != "" && fs.Changed("kube-version") {
		run.Verify.KubeMinor = start.Inputs.Options.KubeVersion.Minor
	}
	return int(verifyrun.Run(run))
}

// usage says what is wrong with the flags as given, "" when nothing is.
func (o verifyOptions) usage(fs *pflag.FlagSet) string {
	switch {
	case o.pairs <= 0 || o.jobs <= 0 || o.examples < 0:
		return fmt.Sprintf("--pairs and --jobs must be positive and --counterexamples not negative, got %d, %d and %d", o.pairs, o.jobs, o.examples)
	case badOutput(o.output, "text", "json", "yaml") != "":
		return badOutput(o.output, "text", "json", "yaml")
	case o.server && startServer == nil:
		return "--server needs the apiserver, which this binary is built without; install the mut2cel that has it, from a clone of mut2cel, with\n  " + installServer
	case (o.policy || o.againstPolicy != "" || o.normalize) && policyJudges == nil:
		return "--policy, --against-policy and --normalize run the apiserver's admission-policy code, which this binary is built without; install the mut2cel that has it, from a clone of mut2cel, with\n  " + installServer
	case o.against != "" && len(givenBounds(fs)) > 0:
		// The rules under test are --against's: no translation makes
		// them, so bounds for one would shape nothing.
		return fmt.Sprintf("%s shape the translation verify makes of PATH, and with --against it makes none: the rules under test are those of %s", sentence(givenBounds(fs)), o.against)
	}
	return o.policyUsage()
}

// policyUsage says what is wrong with the flags that judge through
// policies.
func (o verifyOptions) policyUsage() string {
	switch {
	case o.policy && o.againstPolicy != "":
		return "--policy and --against-policy both name the policies under test; give one"
	case (o.policy || o.againstPolicy != "") && o.against != "":
		return "--against names CRD rules under test, and --policy or --against-policy policies; give one"
	case o.normalize && (o.policy || o.againstPolicy != "" || o.against != ""):
		return "--normalize checks the normalizing policies; it takes none of --policy, --against-policy and --against"
	case o.normalize && o.output != "text":
		return "--normalize writes text only"
	case len(o.builtins) > 0 && !o.policy && o.againstPolicy == "" && !o.normalize:
		return "--builtin kinds have no CRD rules to judge: verify their policies with --policy, --against-policy or --normalize"
	case len(o.builtins) > 0 && o.server:
		return "--builtin kinds are served by a kube-apiserver, not by the apiextensions-apiserver of --server: their policies are judged in process, by the apiserver's admission-policy code"
	}
	return ""
}

// run says what verify checks from start, and how.
func (o verifyOptions) run(e *env, start inputs.Run) verifyrun.Options {
	run := verifyrun.Options{
		Run:               start,
		Against:           o.against,
		Policy:            o.policy,
		Normalize:         o.normalize,
		Server:            o.server,
		StartServer:       startServer,
		StartPolicyServer: startPolicyServer,
		PolicyJudges:      policyJudges,
		Verify: verifyrun.VerifyOptions{Pairs: o.pairs, Seed: o.seed, Workers: o.jobs, Counterexamples: o.examples,
			CompareFormatsAsValues: start.Inputs.Options.CompareFormatsAsValues},
		Quiet:  o.quiet,
		Format: o.output,
		Stdout: e.stdout,
		Stderr: e.stderr,
		Text:   func(w io.Writer) io.Writer { return printableWriter{w} },
	}
	if o.examples == 0 {
		run.Verify.Counterexamples = -1 // none; zero asks for the default
	}
	if progress := newProgress(e, "verify"); !o.quiet && progress != nil {
		run.ProgressOf = progress.pairs
	}
	return run
}
