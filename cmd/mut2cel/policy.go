package main

import (
	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/driver/policyrun"
)

var policyCommand = &command{
	name: "policy", args: "[--dir OUT] [--builtin GROUP/VERSION/KIND [--openapi FILE]] [flags] [PATH...]",
	summary: "write admission policies that enforce declarations and normalize unions",
	help: `Writes admission policies (admissionregistration.k8s.io/v1) for the given
CRDs, or for built-in kinds (--builtin), from their declarations: where
the CRD cannot carry rules (an operator reconciles it, or it is a
built-in type), and where no rule can act (normalizing unions).

--validate (on by default) writes, for every served version with
declarations, a ValidatingAdmissionPolicy and its binding that decide
updates (and creates, for unions) exactly as the rules translate would
write into the CRD (docs/semantics.md, docs/policy.md): each rule walked
to every instance of its node, old and new entries paired as the
apiserver pairs them for CRD rules, over the stored JSON the policy sees.
Kubernetes 1.30 or later. --action Deny (the default), Warn or Audit,
repeatable, sets the binding's validationActions: Warn and Audit without
Deny roll a policy out as a dry run.

--normalize (on by default) writes, for every served version that
declares unions, a MutatingAdmissionPolicy and its binding that normalize
them on create and update as KEP-1027's "Normalizing on updates" says
(docs/semantics.md 11.7): a changed discriminator clears the members it
does not select; a single member set, or a single member added, sets the
discriminator and clears the others. Validation (the CRD's rules, or the
validating policy) then judges the result. Kubernetes 1.36 or later.

--builtin GROUP/VERSION/KIND (repeatable; VERSION/KIND in the core group,
as v1/Service) adds a built-in kind, whose structure, list types and map
keys come from the schema client-go ships for this Kubernetes release;
declare for it in a declarations file whose crd is <plural>.<group>
(deployments.apps, services). --openapi FILE (repeatable) reads the kinds
of --builtin from the cluster's own OpenAPI v3 document instead
(kubectl get --raw /openapi/v3/apis/apps/v1 > apps-v1.json): for a cluster
of another release, or a CRD an operator owns, as the cluster serves it.
Every --builtin kind must then be in exactly one of the documents; its
plural and scope come from the document's paths.

With --dir, writes OUT/<policy>.yaml per policy and OUT/kustomization.yaml
listing them, to add as a resource of your kustomization; files of an
earlier run that this one no longer writes are removed, and a file mut2cel
did not write is never replaced. Without --dir, prints the documents.

The binding applies to every object of the resource unless
--namespace-selector or --object-selector (label selector syntax, as
kubectl -l) narrows it; --exempt-service-account NS:NAME (repeatable)
leaves the requests of a controller (the operator that owns the objects)
alone. A request a policy cannot evaluate is refused (--failure-policy
Fail, the default).

What a policy cannot do exactly is refused with its schema path:
formatted strings compared as values, unions inside list items or map
values for normalization. Inputs with nothing to write are an error. The
flags that shape bounds are refused: bounds change the CRD, not its
policies, and a policy has no static cost limit. Instead, for each
validating policy, a line on standard error says up to which sizes of
lists, maps and strings its validations are sure to stay within the
runtime cost limits (docs/cost.md).
`,
	finding: "never: policy checks nothing",
}

type policyOptions struct {
	inputs            translateInputFlags
	dir               string
	validate          bool
	normalize         bool
	actions           []string
	builtins          []string
	openapi           []string
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
	fs.BoolVar(&o.validate, "validate", true, "write the ValidatingAdmissionPolicies that enforce the declarations")
	fs.BoolVar(&o.normalize, "normalize", true, "write the MutatingAdmissionPolicies that normalize unions")
	fs.StringArrayVar(&o.actions, "action", nil, "Deny, Warn or Audit: the validating bindings' validationActions; repeatable (default Deny)")
	fs.StringArrayVar(&o.builtins, "builtin", nil, "GROUP/VERSION/KIND of a built-in kind to write policies for (v1/Service in the core group); repeatable")
	fs.StringArrayVar(&o.openapi, "openapi", nil, "OpenAPI v3 document of a group version, as kubectl get --raw /openapi/v3/apis/GROUP/VERSION prints it, to read the --builtin kinds from; repeatable")
	fs.SetAnnotation("openapi", completeAnnotation, []string{completeFiles})
	fs.StringVar(&o.namespaceSelector, "namespace-selector", "", "label selector of the namespaces whose objects the bindings apply to (default: all)")
	fs.StringVar(&o.objectSelector, "object-selector", "", "label selector of the objects the bindings apply to (default: all)")
	fs.StringArrayVar(&o.exempt, "exempt-service-account", nil, "NAMESPACE:NAME of a service account whose requests are left alone; repeatable")
	fs.StringVar(&o.failurePolicy, "failure-policy", "Fail", "Fail or Ignore: what the apiserver does with a request the policy cannot evaluate")
	for _, name := range []string{"namespace-selector", "object-selector", "exempt-service-account", "failure-policy", "action", "builtin"} {
		fs.SetAnnotation(name, completeAnnotation, []string{completeFree})
	}
	return fs
}

func runPolicy(c *command, e *env, args []string) int {
	var o policyOptions
	fs := policyFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if !o.normalize && !o.validate {
		e.usageError(c, "--validate=false and --normalize=false leave nothing to write")
		return exitUsage
	}
	run := policyrun.Options{Dir: o.dir, Validate: o.validate, Normalize: o.normalize}
	usage, unread := run.Resolve(policyrun.Flags{NamespaceSelector: o.namespaceSelector, ObjectSelector: o.objectSelector,
		Exempt: o.exempt, FailurePolicy: o.failurePolicy, Actions: o.actions, Builtins: o.builtins, OpenAPI: o.openapi})
	if len(unread) > 0 {
		printDiags(e, unread)
		return exitError
	}
	if usage == "" {
		if run.Run, usage = o.inputs.run(e, fs); usage == "" {
			return finish(e, policyrun.Run(run))
		}
	}
	e.usageError(c, "%s", usage)
	return exitUsage
}
