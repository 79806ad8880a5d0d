package manifest

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// A file that starts with a UTF-16 byte order mark is read as UTF-16, as
// the YAML parser reads it. It is turned into UTF-8 before anything else,
// so that documents, lines and edits work on the text as for any other
// file; an edited file is written back in UTF-8, every line and the final
// line break as they were. A file nothing edits keeps its bytes (File.Bytes).

// fromUTF16 returns data as UTF-8 without its byte order mark, if data
// starts with a UTF-16 one and holds whole, well-formed UTF-16 text; else
// data and false.
func fromUTF16(data []byte) ([]byte, bool) {
	if !utf16BOM(data) || len(data)%2 != 0 {
		return data, false
	}
	var order binary.ByteOrder = binary.LittleEndian
	if data[0] == 0xfe {
		order = binary.BigEndian
	}
	units := make([]uint16, 0, len(data)/2-1)
	for i := 2; i < len(data); i += 2 {
		units = append(units, order.Uint16(data[i:]))
	}
	out := make([]byte, 0, len(units))
	for i := 0; i < len(units); i++ {
		r := rune(units[i])
		if utf16.IsSurrogate(r) {
			if i+1 == len(units) {
				return data, false
			}
			if r = utf16.DecodeRune(r, rune(units[i+1])); r == utf8.RuneError {
				return data, false
			}
			i++
		}
		out = utf8.AppendRune(out, r)
	}
	return out, true
}

// utf16BOM reports whether data starts with a UTF-16 byte order mark.
func utf16BOM(data []byte) bool {
	return len(data) >= 2 && (data[0] == 0xff && data[1] == 0xfe || data[0] == 0xfe && data[1] == 0xff)
}
