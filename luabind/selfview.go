package luabind

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// Bounds of SelfPreview's strings and nesting.
const (
	previewString = 1 << 10
	previewDepth  = 8
)

// SelfPreview returns what a display shows of inst's self: plain data as
// Self returns it, but at most limit keys and values in all (counted at
// every level), strings cut at 1 KiB, tables nested deeper than 8 levels
// shown as "<table>", and values with no plain form as their type name
// ("<function>"). omitted tells whether anything was left out. It costs
// O(limit) whatever the size of the self: an inspector polling an
// instance whose self holds a million values does not copy them. Like
// Self, it runs on the runtime's goroutine; a destroyed instance is an
// error wrapping ErrInstanceGone.
func (h *Host) SelfPreview(inst *runtime.Instance, limit int) (self *runtime.Table, omitted bool, err error) {
	st, li, err := h.selfOf(inst, "self")
	if err != nil {
		return nil, false, err
	}
	p := previewer{st: st, left: limit}
	t := p.table(li.self, 0)
	return t, p.omitted, nil
}

type previewer struct {
	st      *state
	left    int
	omitted bool
}

// table previews t, depth levels down: its own keys and plain values
// first, then its tables with what the limit leaves, so that a large
// table does not hide its neighbours.
func (p *previewer) table(t *lua.LTable, depth int) *runtime.Table {
	out := &runtime.Table{}
	var nested []int
	var tables []*lua.LTable
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		if p.left < 2 {
			p.omitted = true
			break
		}
		p.left -= 2
		// A table as a key is shown as "<table>".
		f := runtime.Field{Key: p.value(k, previewDepth)}
		if sub, ok := v.(*lua.LTable); ok && !isVec(sub) && depth < previewDepth {
			nested, tables = append(nested, len(out.Fields)), append(tables, sub)
		} else {
			f.Value = p.value(v, depth)
		}
		out.Fields = append(out.Fields, f)
	}
	for i, at := range nested {
		out.Fields[at].Value = p.table(tables[i], depth+1)
	}
	return out
}

// value previews one key or value.
func (p *previewer) value(v lua.LValue, depth int) any {
	switch x := v.(type) {
	case lua.LBool:
		return bool(x)
	case lua.LNumber:
		return float64(x)
	case lua.LString:
		if len(x) > previewString {
			p.omitted = true
			return string(x[:previewString]) + "..."
		}
		return string(x)
	case *lua.LTable:
		switch {
		case isVec(x):
			if c, err := p.st.toPlain(x, "self"); err == nil {
				return c
			}
		case depth < previewDepth:
			return p.table(x, depth+1)
		}
		p.omitted = true
		return "<table>"
	case *lua.LUserData:
		if h, ok := x.Value.(runtime.Handle); ok {
			return h
		}
	}
	return "<" + v.Type().String() + ">"
}
