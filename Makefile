GO ?= go

.PHONY: all build test vet fuzz

all: build

build:
	$(GO) build -o bin/mut2cel ./cmd/mut2cel

vet:
	$(GO) vet ./...

# The whole suite, as CI runs it.
test: vet
	$(GO) test ./...

# Short fuzzing runs of every fuzz target.
fuzz:
	$(GO) test ./verify -run '^$$' -fuzz FuzzCheck -fuzztime 30s
	$(GO) test ./verify -run '^$$' -fuzz FuzzRandomSchema -fuzztime 30s
	$(GO) test ./internal/manifest -run '^$$' -fuzz FuzzParse -fuzztime 30s
