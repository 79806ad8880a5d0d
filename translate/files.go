package translate

import (
	"fmt"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
)

// addFiles takes the declarations of the sets that name doc's CRD into
// st.files, checking each against the CRD: a version the CRD lacks, a path
// its schema lacks, or a value the CRD already declares otherwise is a
// problem at the line of the file that says it.
func (st *state) addFiles(doc map[string]interface{}, sets []decl.Set) []Problem {
	name, _ := nestedField(doc["metadata"], "name").(string)
	st.files, st.sources = declarations{}, map[string]decl.Source{}
	var problems []Problem
	fail := func(src decl.Source, format string, args ...interface{}) {
		problems = append(problems, Problem{Source: src, Detail: fmt.Sprintf(format, args...)})
	}
	declared := st.declared()
	for _, s := range sets {
		if s.CRD != name {
			continue
		}
		var versions []string
		for _, v := range servedVersions(doc, st) {
			versions = append(versions, v.name)
		}
		if len(s.Versions) > 0 {
			versions = nil
			for _, v := range s.Versions {
				if root, ok := st.roots[v.Name]; !ok || root == nil {
					fail(v.Source, "version %s: CRD %s has no version of this name with a schema (it has %s)", v.Name, name, strings.Join(st.versions, ", "))
					continue
				}
				versions = append(versions, v.Name)
			}
		}
		for _, f := range s.Fields {
			path := f.Path.String()
			for _, v := range versions {
				raw, _ := nestedMap(doc, st.roots[v]...)
				if _, ok := f.Path.Resolve(raw); !ok {
					hint := "check the path"
					if len(s.Versions) == 0 {
						hint = "every served version is declared: list those that have it under versions"
					}
					fail(f.Source, "version %s: %s: no such node in the schema of CRD %s (%s)", v, path, name, hint)
					continue
				}
				for _, ext := range sortedNames(f.Values) {
					value := f.Values[ext]
					if have, ok := declared[v][path][ext]; ok && have != value {
						fail(f.Source, "version %s: %s: %s: %s, but CRD %s declares %s here already (in its schema or its %s annotation): keep one of the two", v, path, ext, value, name, have, annDeclarations)
						continue
					}
					if have, ok := st.files[v][path][ext]; ok && have != value {
						fail(f.Source, "version %s: %s: %s: %s, but %s declares %s for it: keep one of the two", v, path, ext, value, st.sources[sourceKey(v, path, ext)], have)
						continue
					}
					st.files.add(v, path, ext, value)
					st.sources[sourceKey(v, path, ext)] = f.Source
				}
			}
		}
	}
	return problems
}

func sourceKey(version, path, ext string) string {
	return pathKey([]interface{}{version, path, ext})
}
