package builtin

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// client-go's knowledge of the built-in kinds, kept in the binary as data
// rather than linked as code: which kinds its scheme registers, with the
// name of each kind's type, and its schema for server-side apply, the
// structure of those types. Linking client-go's scheme registers every
// built-in Go type with all its methods, about 18 MB of the binary, for a
// lookup and a schema that fit in 100 KB. TestClientGoData writes both
// files from client-go itself (go test -update) and fails wherever they
// differ from what client-go says, so that no upgrade of client-go
// leaves them behind.

// clientGoKinds has a line per kind of client-go's scheme: the kind as
// GROUP/VERSION/KIND (VERSION/KIND in the core group), and the name of
// its type in the schema, or "-" where the scheme gives none.
//
//go:embed clientgo-kinds.txt
var clientGoKinds string

// clientGoSchema is client-go's schema for server-side apply, in the YAML
// that structured-merge-diff reads, compressed with gzip.
//
//go:embed clientgo-schema.yaml.gz
var clientGoSchema []byte

// kindTypes maps each kind of client-go's scheme to the name of its type
// in clientGoSchema, "" where none.
var kindTypes = sync.OnceValue(func() map[schema.GroupVersionKind]string {
	out := map[schema.GroupVersionKind]string{}
	sc := bufio.NewScanner(strings.NewReader(clientGoKinds))
	for sc.Scan() {
		kind, name, _ := strings.Cut(sc.Text(), " ")
		gvk, err := ParseKind(kind)
		if err != nil {
			panic(fmt.Sprintf("clientgo-kinds.txt: %v", err)) // the test holds the file to client-go
		}
		if name == "-" {
			name = ""
		}
		out[gvk] = name
	}
	return out
})

// clientGoParser reads clientGoSchema once, on first use: only runs with
// built-in kinds need it.
var clientGoParser = sync.OnceValues(func() (*typed.Parser, error) {
	r, err := gzip.NewReader(bytes.NewReader(clientGoSchema))
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return typed.NewParser(typed.YAMLObject(data))
})

// knownKind says whether client-go's scheme registers gvk.
func knownKind(gvk schema.GroupVersionKind) bool {
	_, ok := kindTypes()[gvk]
	return ok
}

// clientGoType returns the schema and type of the kind gvk in client-go's
// schema for server-side apply.
func clientGoType(gvk schema.GroupVersionKind) (typed.ParseableType, error) {
	p, err := clientGoParser()
	if err != nil {
		return typed.ParseableType{}, fmt.Errorf("client-go's schema: %w", err)
	}
	name := kindTypes()[gvk]
	if name == "" {
		return typed.ParseableType{}, fmt.Errorf("%s: no schema: client-go's scheme names no type for the kind", gvk)
	}
	if _, ok := p.Schema.FindNamedType(name); !ok {
		return typed.ParseableType{}, fmt.Errorf("%s: no schema: client-go's schema has no type %s", gvk, name)
	}
	return p.Type(name), nil
}
