package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/luahost/luahost/runtime"
)

// maxBody bounds a request's JSON body.
const maxBody = 1 << 20

// rawJSON is an answer that writes its own JSON.
type rawJSON interface{ rawJSON() []byte }

// answer writes body as JSON with status.
func answer(w http.ResponseWriter, status int, body any) {
	var data []byte
	var err error
	if r, ok := body.(rawJSON); ok {
		data = r.rawJSON()
	} else {
		data, err = json.Marshal(body)
	}
	if err != nil {
		status = http.StatusInternalServerError
		data, _ = json.Marshal(errorBody{"cannot encode the answer: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// errorBody is every refusal's answer.
type errorBody struct {
	Error string `json:"error"`
}

// fail answers status with a formatted message.
func fail(w http.ResponseWriter, status int, format string, args ...any) {
	answer(w, status, errorBody{fmt.Sprintf(format, args...)})
}

// answerError answers an *apiError with its status, any other error 500.
func answerError(w http.ResponseWriter, err error) {
	if ae, ok := err.(*apiError); ok {
		fail(w, ae.status, "%s", ae.msg)
		return
	}
	fail(w, http.StatusInternalServerError, "%s", err.Error())
}

// badRequest is a 400 with a formatted message.
func badRequest(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// decode reads a JSON object from r's body into dst: unknown fields, a
// key given twice in one object (as scenes and snapshots refuse it, rather
// than letting the last win), trailing data and bodies past maxBody are
// 400s.
func decode(r *http.Request, dst any) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return badRequest("reading the body: %v", err)
	}
	if len(body) == 0 {
		return badRequest("the request needs a JSON body")
	}
	if len(body) > maxBody {
		return badRequest("the body is larger than %d bytes", maxBody)
	}
	if key, ok := duplicateKey(body); ok {
		return badRequest("bad JSON body: key %s is given twice in one object", strconv.Quote(key))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return badRequest("bad JSON body: %v", err)
	}
	if dec.More() {
		return badRequest("bad JSON body: more than one value")
	}
	return nil
}

// duplicateKey returns the first key that an object of data gives twice.
// Malformed JSON has none: decoding reports it. O(len(data)).
func duplicateKey(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	// One set of keys per open object, nil for an open array; inKey
	// tells, per open object, whether the next string is a key.
	var keys []map[string]bool
	var inKey []bool
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		top := len(keys) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				keys, inKey = append(keys, map[string]bool{}), append(inKey, true)
				continue
			case '[':
				keys, inKey = append(keys, nil), append(inKey, false)
				continue
			default:
				keys, inKey = keys[:top], inKey[:top]
			}
		case string:
			if top >= 0 && keys[top] != nil && inKey[top] {
				if keys[top][t] {
					return t, true
				}
				keys[top][t] = true
				inKey[top] = false
				continue
			}
		}
		// A value ended: the next string of the object around is a key.
		if top = len(keys) - 1; top >= 0 && keys[top] != nil {
			inKey[top] = true
		}
	}
}

// number is a float64 that encodes NaN and the infinities as Lua prints
// them ("nan", "inf", "-inf"): JSON has no such numbers.
type number float64

// MarshalJSON writes n as a JSON number, or as a string when JSON cannot.
func (n number) MarshalJSON() ([]byte, error) { return appendNumber(nil, float64(n)), nil }

// appendNumber appends f as a number's JSON.
func appendNumber(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"nan"`...)
	case math.IsInf(f, 1):
		return append(b, `"inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-inf"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

func vec(v runtime.Vec3) [3]number { return [3]number{number(v.X), number(v.Y), number(v.Z)} }

// jsonValue turns plain data into what encoding/json writes: a table
// whose keys are 1..n in order is an array, any other an object whose
// keys are written as strings; entities are their id ("entity(3:1)") and
// vectors {"x", "y", "z"}.
func jsonValue(v any) any {
	switch x := v.(type) {
	case nil, bool, string:
		return x
	case float64:
		return number(x)
	case runtime.Handle:
		return x.String()
	case runtime.Vec3:
		return map[string]number{"x": number(x.X), "y": number(x.Y), "z": number(x.Z)}
	case *runtime.Table:
		if isArray(x) {
			out := make([]any, len(x.Fields))
			for i, f := range x.Fields {
				out[i] = jsonValue(f.Value)
			}
			return out
		}
		out := make(map[string]any, len(x.Fields))
		for _, f := range x.Fields {
			out[keyString(f.Key)] = jsonValue(f.Value)
		}
		return out
	}
	return fmt.Sprint(v)
}

// isArray reports whether t's keys are 1..n in order (and t not empty:
// an empty table is {}).
func isArray(t *runtime.Table) bool {
	for i, f := range t.Fields {
		if n, ok := f.Key.(float64); !ok || n != float64(i+1) {
			return false
		}
	}
	return len(t.Fields) > 0
}

func keyString(k any) string {
	switch x := k.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case runtime.Handle:
		return x.String()
	}
	return fmt.Sprint(k)
}

// plainOf turns a decoded JSON value into plain data: objects and arrays
// become tables (runtime.Plain's map[string]any and []any), null is nil.
func plainOf(v any, what string) (any, error) {
	p, err := runtime.Plain(v)
	if err != nil {
		return nil, badRequest("%s: %v", what, err)
	}
	return p, nil
}

// parseHandle reads an entity id: "entity(3:1)" as ids are written, or
// "3:1".
func parseHandle(id string) (runtime.Handle, error) {
	s := strings.TrimSuffix(strings.TrimPrefix(id, "entity("), ")")
	i, g, ok := strings.Cut(s, ":")
	idx, err1 := strconv.ParseUint(i, 10, 32)
	gen, err2 := strconv.ParseUint(g, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return runtime.Handle{}, badRequest("bad entity id %q (want \"entity(INDEX:GEN)\", as /api/entities lists them)", id)
	}
	return runtime.Handle{Index: uint32(idx), Gen: uint32(gen)}, nil
}
