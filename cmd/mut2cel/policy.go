package main

import (
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/internal/driver/batch"
	"github.com/mut2cel/mut2cel/internal/driver/policyrun"
)

var policyCommand = &command{
	name: "policy", args: "[--dir OUT] [flags] [PATH...]",
	summary: "write admission policies that normalize the CRDs' unions",
	help: `Writes, for every served version of the given CRDs that declares unions,
a MutatingAdmissionPolicy and its binding that normalize the unions on
create and update as KEP-1027's "Normalizing on updates" says
(docs/semantics.md 11.7, docs/policy.md): a changed discriminator clears
the members it does not select; a single member set, or a single member
added, sets the discriminator and clears the others. The CRD's own rules
(what translate writes) then validate the result. Requires Kubernetes
1.36 or later, where MutatingAdmissionPolicy is GA and on.

With --dir, writes OUT/<policy>.yaml per policy and OUT/kustomization.yaml
listing them, to add as a resource of your kustomization; files of an
earlier run that this one no longer writes are removed, and a file mut2cel
did not write is never replaced. Without --dir, prints the documents.

The binding applies to every object of the resource unless
--namespace-selector or --object-selector (label selector syntax, as
kubectl -l) narrows it; --exempt-service-account NS:NAME (repeatable)
leaves the requests of a controller that knows the unions alone. A
request the policy cannot evaluate is refused (--failure-policy Fail, the
default) rather than stored unnormalized.

Unions inside list items or map values cannot be normalized by a JSON
patch and are refused, with their schema path: leave them to the CRD's
rules, or move the union. Inputs with no union are an error. The flags
that shape bounds are refused: bounds change the CRD, not its policies.
`,
	finding: "never: policy checks nothing",
}

type policyOptions struct {
	inputs            translateInputFlags
	dir               string
	normalize         bool
	namespaceSelector string
	objectSelector    string
	exempt            []string
	failurePolicy     string
}

// policyRefuses are the shared flags policy does not take, and why.
var policyRefuses = func() map[string]string {
	out := map[string]string{}
	for _, name := range boundFlags {
		out[name] = "bounds shape the rules of the CRD, not its admission policies; give them to translate or patch"
	}
	return out
}()

func init() {
	policyCommand.flags = func() *pflag.FlagSet { return policyFlags(&policyOptions{}) }
	policyCommand.run = runPolicy
}

func policyFlags(o *policyOptions) *pflag.FlagSet {
	fs := pflag.NewFlagSet("policy", pflag.ContinueOnError)
	o.inputs.register(fs, "policy", policyRefuses)
	fs.StringVar(&o.dir, "dir", "", "directory to write the policies and their kustomization.yaml into (default: print them)")
	fs.SetAnnotation("dir", completeAnnotation, []string{completeDirs})
	fs.BoolVar(&o.normalize, "normalize", true, "write the MutatingAdmissionPolicies that normalize unions (the only kind for now)")
	fs.StringVar(&o.namespaceSelector, "namespace-selector", "", "label selector of the namespaces whose objects the bindings apply to (default: all)")
	fs.StringVar(&o.objectSelector, "object-selector", "", "label selector of the objects the bindings apply to (default: all)")
	fs.StringArrayVar(&o.exempt, "exempt-service-account", nil, "NAMESPACE:NAME of a service account whose requests are left alone; repeatable")
	fs.StringVar(&o.failurePolicy, "failure-policy", "Fail", "Fail or Ignore: what the apiserver does with a request the policy cannot evaluate")
	for _, name := range []string{"namespace-selector", "object-selector", "exempt-service-account", "failure-policy"} {
		fs.SetAnnotation(name, completeAnnotation, []string{completeFree})
	}
	return fs
}

// binding reads the binding flags; a bad one is a usage error.
func (o *policyOptions) binding() (policy.Options, string) {
	var b policy.Options
	var err error
	if o.namespaceSelector != "" {
		if b.NamespaceSelector, err = metav1.ParseToLabelSelector(o.namespaceSelector); err != nil {
			return b, fmt.Sprintf("--namespace-selector: %v", err)
		}
	}
	if o.objectSelector != "" {
		if b.ObjectSelector, err = metav1.ParseToLabelSelector(o.objectSelector); err != nil {
			return b, fmt.Sprintf("--object-selector: %v", err)
		}
	}
	for _, s := range o.exempt {
		a, err := policy.ParseServiceAccount(s)
		if err != nil {
			return b, fmt.Sprintf("--exempt-service-account: %v", err)
		}
		b.Exempt = append(b.Exempt, a)
	}
	switch f := admissionregistrationv1.FailurePolicyType(o.failurePolicy); f {
	case admissionregistrationv1.Fail, admissionregistrationv1.Ignore:
		b.FailurePolicy = f
	default:
		return b, fmt.Sprintf("--failure-policy: %q is neither Fail nor Ignore", o.failurePolicy)
	}
	return b, ""
}

func runPolicy(c *command, e *env, args []string) int {
	var o policyOptions
	fs := policyFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if !o.normalize {
		e.usageError(c, "--normalize=false leaves nothing to write: normalizing policies are the only kind for now")
		return exitUsage
	}
	binding, usage := o.binding()
	if usage == "" {
		var in *translateInputs
		var diags []batch.Diagnostic
		if in, usage, diags = o.inputs.load(fs); usage == "" {
			return policyRun(e, fs, &o, in, policyrun.Options{Normalize: o.normalize, Binding: binding}, diags)
		}
	}
	e.usageError(c, "%s", usage)
	return exitUsage
}

func policyRun(e *env, fs *pflag.FlagSet, o *policyOptions, in *translateInputs, opts policyrun.Options, diags []batch.Diagnostic) int {
	inputs, more := batch.Collect(fs.Args(), e.stdin)
	diags = append(diags, more...)
	tr := in.translate(e.translate)
	var files []policyrun.File
	census := &batch.Census{}
	progress := newProgress(e, "policy")
	for i, input := range inputs {
		r := policyrun.Build(input, tr, opts)
		progress.inputs(i+1, len(inputs))
		printDiags(e, census.Add(input.Name, r.File))
		files, diags = append(files, r.Files...), append(diags, r.Diags...)
	}
	unusedWarnings, unusedErrs := in.unused()
	printDiags(e, unusedWarnings)
	diags = append(diags, unusedErrs...)
	diags = append(diags, policyrun.Duplicates(files)...)
	if len(diags) == 0 {
		diags = census.NoCRD(fs.Args())
	}
	if len(diags) == 0 && len(files) == 0 {
		diags = []batch.Diagnostic{policyrun.NoUnions(fs.Args(), "--declarations", "--markers")}
	}
	if len(diags) > 0 {
		printDiags(e, firstReasons(diags, false))
		return exitError
	}
	if o.dir == "" {
		e.stdout.Write(policyrun.Stdout(files))
		return exitOK
	}
	written, err := policyrun.Write(o.dir, files)
	if err != nil {
		fmt.Fprintf(e.stderr, "mut2cel policy: %v\n", err)
		return exitError
	}
	what := fmt.Sprintf("%d policies and their bindings", len(files))
	if len(files) == 1 {
		what = "1 policy and its binding"
	}
	fmt.Fprintf(e.stderr, "mut2cel policy: wrote %s, and %s listing them\n", what, written[len(written)-1])
	return exitOK
}
