package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"

	"github.com/luahost/luahost/runtime"
)

// Marshal returns the snapshot's JSON form: the same world gives the same
// bytes. The world's fields come first on one line, then one entity a
// line, so that a diff of two snapshots shows which entities differ.
func (s *World) Marshal() ([]byte, error) {
	head := *s
	head.Entities = nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&head); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	// Encode ended the head with "}\n": the entities go before the "}".
	buf.Truncate(buf.Len() - 2)
	buf.WriteString(`,"entities":[`)
	for i := range s.Entities {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		if err := enc.Encode(&s.Entities[i]); err != nil {
			return nil, fmt.Errorf("snapshot: entity %s: %w", s.Entities[i].ID, err)
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteString("\n]}\n")
	return buf.Bytes(), nil
}

// formatError says why a snapshot's format field cannot be read by this
// version.
func formatError(format string) error {
	switch {
	case format == "":
		return fmt.Errorf("%w: not a luahost snapshot (no \"format\" field)", runtime.ErrBadSnapshot)
	case strings.HasPrefix(format, "luahost-snapshot/"):
		return fmt.Errorf("%w: format %q is not one this luahost reads (it reads %s): a newer luahost wrote it", runtime.ErrBadSnapshot, format, Format)
	}
	return fmt.Errorf("%w: unknown format %q (want %s)", runtime.ErrBadSnapshot, format, Format)
}

// Parse reads a snapshot's JSON form strictly: unknown fields,
// a field of the document given twice, values of the wrong type, malformed plain data and trailing data are
// errors naming where they are (line:col, or the entity and the path of
// the value). The "format" field selects the reader: this version reads
// luahost-snapshot/1 and refuses any other format, a newer one with an
// error that says so. A later format adds its case here, reading the
// document into its own type and migrating it to the current one, so
// that old snapshots stay readable (docs/snapshot.md, "Versions").
func Parse(data []byte) (*World, error) {
	format, err := readFormat(data)
	if err != nil {
		return nil, err
	}
	switch format {
	case Format:
		return parseV1(data)
	}
	return nil, formatError(format)
}

// readFormat returns the document's "format" field: from its first key
// when it is there, as snapshots write it (without reading the rest),
// otherwise from the whole document.
func readFormat(data []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err == nil && t == json.Delim('{') {
		if k, err := dec.Token(); err == nil && k == "format" {
			if v, err := dec.Token(); err == nil {
				if s, ok := v.(string); ok {
					return s, nil
				}
			}
		}
	}
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", jsonError(data, err)
	}
	return head.Format, nil
}

// parseV1 reads a luahost-snapshot/1 document in one pass. When that
// fails, it reads it again entity by entity, so that the error names the
// entity and the path of the value.
func parseV1(data []byte) (*World, error) {
	snap := &World{}
	if err := strictDecode(data, (*snapshotFields)(snap)); err == nil {
		if key, at := topDuplicate(data); at >= 0 {
			return nil, snapshotAt(data, at, fmt.Sprintf("the field %s is given twice", key))
		}
		return snap, nil
	}
	var doc struct {
		*snapshotFields
		Entities []json.RawMessage `json:"entities"`
	}
	snap = &World{}
	doc.snapshotFields = (*snapshotFields)(snap)
	if err := strictDecode(data, &doc); err != nil {
		return nil, jsonError(data, err)
	}
	snap.Entities = make([]Entity, len(doc.Entities))
	for i, raw := range doc.Entities {
		if err := strictDecode(raw, &snap.Entities[i]); err != nil {
			return nil, fmt.Errorf("entities[%d]: %w", i, jsonError(raw, err))
		}
	}
	return snap, nil
}

// topDuplicate returns the first key that the document's top object, a
// valid JSON object, gives twice, and its offset; -1 if none does.
// encoding/json would quietly keep the last value (a second "entities"
// would replace the first). One pass over the bytes, no allocation but
// the keys'.
func topDuplicate(data []byte) (string, int64) {
	seen := make(map[string]bool)
	depth, keyNext := 0, false
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			start := i
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if depth == 1 && keyNext {
				key := string(data[start : i+1])
				if seen[key] {
					return key, int64(start)
				}
				seen[key] = true
				keyNext = false
			}
		case '{', '[':
			depth++
			keyNext = depth == 1
		case '}', ']':
			depth--
		case ',':
			keyNext = depth == 1
		}
	}
	return "", -1
}

// snapshotFields is World without its methods, for parseV1.
type snapshotFields World

func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the snapshot")
	}
	return nil
}

// jsonError places a decoding error at its line and column.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) && syn.Offset >= int64(len(data)):
		return snapshotAt(data, int64(len(data)), "unexpected end of the snapshot (truncated?)")
	case errors.As(err, &syn):
		return snapshotAt(data, syn.Offset-1, err.Error())
	case errors.As(err, &typ):
		field := strings.TrimPrefix(typ.Field, "snapshotFields.")
		return snapshotAt(data, typ.Offset-1, fmt.Sprintf("%s: want %s, not a JSON %s", field, jsonKind(typ.Type), typ.Value))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return snapshotAt(data, int64(len(data)), "unexpected end of the snapshot (truncated?)")
	case errors.Is(err, runtime.ErrBadSnapshot):
		return err
	}
	return fmt.Errorf("%w: %v", runtime.ErrBadSnapshot, err)
}

// jsonKind names what a snapshot field of Go type t holds in JSON terms,
// never by its Go type.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf("an integer from 0 to %d", ^uint64(0)>>(64-t.Bits()))
	case reflect.Int64:
		return fmt.Sprintf("an integer from %d to %d", math.MinInt64, math.MaxInt64)
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// TextError is a snapshot that is not well-formed JSON of the
// format's types, at a place in its text (1-based line and column). It
// wraps runtime.ErrBadSnapshot.
type TextError struct {
	Line, Col int
	Message   string
}

func (e *TextError) Error() string {
	return fmt.Sprintf("%v: line %d, col %d: %s", runtime.ErrBadSnapshot, e.Line, e.Col, e.Message)
}

// Unwrap returns runtime.ErrBadSnapshot.
func (e *TextError) Unwrap() error { return runtime.ErrBadSnapshot }

// snapshotAt returns a TextError at byte offset of data.
func snapshotAt(data []byte, offset int64, msg string) *TextError {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return &TextError{Line: line, Col: col, Message: msg}
}

// CheckFormat returns nil when s is in the format this version reads,
// and otherwise an error wrapping runtime.ErrBadSnapshot that says why.
func (s *World) CheckFormat() error {
	if s.Format == Format {
		return nil
	}
	return formatError(s.Format)
}
