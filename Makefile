GO ?= go

.PHONY: all build build-server test vet fuzz e2e probe

all: build

build:
	$(GO) build -o bin/mut2cel ./cmd/mut2cel

# The command with verify --server, which embeds an apiserver and etcd.
build-server:
	$(GO) build -tags server -o bin/mut2cel ./cmd/mut2cel

# go vet, and gofmt: unformatted files fail the suite.
vet:
	$(GO) vet ./...
	$(GO) vet -tags server ./cmd/mut2cel
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi

# The whole suite, as CI runs it. go test starts packages in the order it
# is given them, two at a time on two cores: the packages whose tests run
# longest (verify's corpus sweep, the command's audit) go first, so that
# none is left running alone at the end. The tests of verify --server need
# the server build tag; they wait on the servers they start more than
# they compute, so they run beside the rest, and their output follows it.
# 15 minutes, not go test's default 10, keeps a slow machine from failing
# verify's package by the clock alone. The test binaries are linked
# without DWARF (-ldflags=-w; a failing test's stack trace needs none):
# from a fresh clone, compiling the module's packages and linking the 50
# test binaries took about 100 s of the suite's 12 minutes of CPU, and
# -w takes 40% off each link.
SLOW_PACKAGES = ./verify ./cmd/mut2cel ./e2e
TESTFLAGS = -ldflags=-w

test: vet
	@log=$$(mktemp); \
	$(GO) test $(TESTFLAGS) -tags server -run Server ./cmd/mut2cel >$$log 2>&1 & server=$$!; \
	$(GO) test $(TESTFLAGS) -timeout 15m $(SLOW_PACKAGES) ./...; status=$$?; \
	wait $$server || status=1; \
	echo "--- the tests of verify --server (go test -tags server -run Server ./cmd/mut2cel):"; \
	cat $$log; rm -f $$log; exit $$status

# The hostile-input probes of issue 28 (also part of test): generated
# inputs given to every command (TestProbes, TestProbeCases, the limits of
# docs/limits.md and the tests of line breaks, named pipes, lost output and
# concurrent -w), and the unit tests of each fix. Nothing large is
# committed; it takes seconds.
probe:
	$(GO) test ./cmd/mut2cel -count=1 -run 'Probe|ExitCodes|NotRegularFiles|LineBreaks|Output|WriteRace|LimitsExit'
	$(GO) test ./decl ./driver/batch ./driver/patchrun ./internal/limits ./manifest ./driver/verifyrun ./frontend/markers ./translate -count=1 \
		-run 'Printable|JSONStringEscapes|ParseFile|Capped|TestWrite|UTF16|DuplicateKey|YAMLReads|LoadErrors|AnnotationLong|TestErrors|TestLimits|Collect|ReadDeclarationsValues|EstimateValues|OutsideModule|NestedModule'

# Only the end-to-end tests against an in-process apiserver (also part of
# test): the translations in e2e, the admission policies in
# driver/policyserver (docs/policy-e2e.md).
e2e:
	$(GO) test ./e2e ./driver/policyserver -count=1

# Short fuzzing runs of every fuzz target.
fuzz:
	$(GO) test ./verify/reference -run '^$$' -fuzz FuzzCheck -fuzztime 30s
	$(GO) test ./verify -run '^$$' -fuzz FuzzRandomSchema -fuzztime 30s
	$(GO) test ./verify/reference -run '^$$' -fuzz FuzzNormalize -fuzztime 30s
	$(GO) test ./manifest -run '^$$' -fuzz FuzzParse -fuzztime 30s
	$(GO) test ./manifest -run '^$$' -fuzz FuzzApply -fuzztime 30s
	$(GO) test ./manifest -run '^$$' -fuzz FuzzLayout -fuzztime 30s
	$(GO) test ./decl -run '^$$' -fuzz FuzzDeclPath -fuzztime 30s
	$(GO) test ./decl -run '^$$' -fuzz FuzzPath -fuzztime 30s
	$(GO) test ./decl -run '^$$' -fuzz FuzzParseFile -fuzztime 30s
	$(GO) test ./frontend/infer/phrases -run '^$$' -fuzz FuzzDescription -fuzztime 30s
	$(GO) test ./frontend/infer/ruleshape -run '^$$' -fuzz FuzzRule -fuzztime 30s
