package manifest

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unicode/utf16"

	"github.com/mut2cel/mut2cel/edit"
)

// encodeUTF16 writes s as UTF-16 with a byte order mark.
func encodeUTF16(s string, order binary.AppendByteOrder) []byte {
	out := order.AppendUint16(nil, 0xfeff)
	for _, u := range utf16.Encode([]rune(s)) {
		out = order.AppendUint16(out, u)
	}
	return out
}

// TestUTF16 reads UTF-16 files of one and of two documents, with and
// without a final line break: unedited, a file keeps its bytes; edited,
// it is the UTF-8 file edited alike, final line break and every other
// document included. The edited file lost its final line break, and a
// second document was not found.
func TestUTF16(t *testing.T) {
	doc := "kind: Widget # ü, 😀\nspec:\n  a: 1\n"
	for _, c := range []struct{ name, text string }{
		{"one document", doc},
		{"no final line break", doc[:len(doc)-1]},
		{"two documents", "kind: Other\n---\n" + doc},
		{"CRLF", "kind: Other\r\n---\r\nkind: Widget\r\nspec:\r\n  a: 1\r\n"},
	} {
		for order, name := range map[binary.AppendByteOrder]string{binary.LittleEndian: "LE", binary.BigEndian: "BE"} {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				data := encodeUTF16(c.text, order)
				f, err := Parse("u.yaml", data)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if !bytes.Equal(f.Bytes(), data) {
					t.Errorf("Bytes of the unedited file = %q, want its bytes", f.Bytes())
				}
				u8, err := Parse("u.yaml", []byte(c.text))
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Docs) != len(u8.Docs) {
					t.Fatalf("%d documents, want %d", len(f.Docs), len(u8.Docs))
				}
				edits := []edit.Edit{{Path: []interface{}{"spec"}, Set: []edit.Setting{{Key: "b", Value: "on"}}}}
				for _, file := range []*File{f, u8} {
					if err := file.Docs[len(file.Docs)-1].Apply(edits); err != nil {
						t.Fatalf("Apply: %v", err)
					}
				}
				if got, want := f.Bytes(), u8.Bytes(); !bytes.Equal(got, want) {
					t.Errorf("edited UTF-16 file =\n%q\nwant the UTF-8 file edited alike\n%q", got, want)
				}
			})
		}
	}
}

// TestUTF16Malformed: text that is not whole UTF-16 is left to the
// parser, which refuses it, rather than misread.
func TestUTF16Malformed(t *testing.T) {
	for name, data := range map[string][]byte{
		"odd length":     append(encodeUTF16("a: 1\n", binary.LittleEndian), 'x'),
		"lone surrogate": binary.LittleEndian.AppendUint16(encodeUTF16("a: ", binary.LittleEndian), 0xd800),
	} {
		if _, ok := fromUTF16(data); ok {
			t.Errorf("%s: fromUTF16 read it", name)
		}
		if _, err := Parse("u.yaml", data); err == nil {
			t.Errorf("%s: Parse read it", name)
		}
	}
}
