package compile

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// gopher-lua stores a constructor's positional items in blocks of 50 and
// decides after every field whether to store a block, but it does not
// reset the count: a keyed field right after the 50th positional item (or
// the 100th...) stored the block a second time, from registers the keyed
// field had overwritten ({1, ..., 50, x = a + 1} had t[1] = a + 1, and
// {1, ..., 50, x = f()} could crash the state), and with a keyed field
// anywhere, a call or ... last after the 50th item stored its values at
// [1]. Lua 5.1 stores each block once, before the next field.
//
// The compile step moves such keyed fields where gopher-lua gets them
// right when nothing can tell (their keys strings, their values and the
// item they pass free of side effects): before the 50th item, or, for a
// call last, after all the items, set on the table pack makes. Any other
// such constructor is refused (flushRefusal), with what to write instead.

// flushTrouble is where gopher-lua would store a constructor wrongly:
// the field at index at, a keyed one right after a 50th positional item,
// or (lastCall) a call or ... last after 50 items, with a keyed field
// somewhere.
type flushTrouble struct {
	at       int
	lastCall bool
}

// flushTroubleOf returns where gopher-lua would store e's items wrongly,
// and whether it would.
func flushTroubleOf(e *ast.TableExpr) (flushTrouble, bool) {
	positional, keyed := 0, false
	for i, f := range e.Fields {
		if f.Key != nil {
			keyed = true
			if positional > 0 && positional%lua.FieldsPerFlush == 0 {
				return flushTrouble{at: i}, true
			}
			continue
		}
		if i == len(e.Fields)-1 && multiValued(f.Value) && keyed && positional > 0 && positional%lua.FieldsPerFlush == 0 {
			return flushTrouble{at: i, lastCall: true}, true
		}
		positional++
	}
	return flushTrouble{}, false
}

// flushRefusal returns the error of a constructor gopher-lua would store
// wrongly and that cannot be moved safely, or nil.
func flushRefusal(e *ast.TableExpr) *SyntaxError {
	tr, ok := flushTroubleOf(e)
	if !ok || movable(e, tr) {
		return nil
	}
	if tr.lastCall {
		return &SyntaxError{Line: e.Line(), Msg: fmt.Sprintf("table constructor ends in a call or ... after %d positional items with a keyed field: gopher-lua stores its values at [1]; fill the table after it is made", lua.FieldsPerFlush)}
	}
	return &SyntaxError{Line: e.Line(), Msg: fmt.Sprintf("table constructor has a keyed field right after a multiple of %d positional items: gopher-lua stores the items wrongly there; move the keyed field before them", lua.FieldsPerFlush)}
}

// movable reports whether the fields tr names can move where gopher-lua
// stores the constructor right without anything telling.
func movable(e *ast.TableExpr, tr flushTrouble) bool {
	if tr.lastCall {
		// pack takes the items as arguments, in registers.
		if len(e.Fields) > maxPackItems {
			return false
		}
		for _, f := range e.Fields {
			if f.Key != nil && (!stringKey(f.Key) || !pure(f.Value)) {
				return false
			}
		}
		return true
	}
	if !pure(e.Fields[tr.at-1].Value) {
		return false
	}
	for _, f := range e.Fields[tr.at:] {
		if f.Key == nil {
			break
		}
		if !stringKey(f.Key) || !pure(f.Value) {
			return false
		}
	}
	return true
}

// fixFlush rewrites e, when gopher-lua would store it wrongly and the
// fields can move, so that it stores it as Lua 5.1 does; flushRefusal has
// refused the others.
func (rw *rewriter) fixFlush(e *ast.TableExpr) ast.Expr {
	tr, ok := flushTroubleOf(e)
	if !ok || !movable(e, tr) {
		return e
	}
	if tr.lastCall {
		var items, named []ast.Expr
		for _, f := range e.Fields {
			if f.Key == nil {
				items = append(items, f.Value)
			} else {
				named = append(named, f.Key, f.Value)
			}
		}
		made := rw.helperCall(pack, items, e)
		return rw.helperCall(setFields, append([]ast.Expr{made}, named...), e)
	}
	// Move the keyed fields after the 50th item before it, and check the
	// rest again: another block may end before another keyed field.
	end := tr.at
	for end < len(e.Fields) && e.Fields[end].Key != nil {
		end++
	}
	item := e.Fields[tr.at-1]
	moved := append([]*ast.Field(nil), e.Fields[tr.at:end]...)
	fields := append(append(append([]*ast.Field(nil), e.Fields[:tr.at-1]...), moved...), item)
	e.Fields = append(fields, e.Fields[end:]...)
	return rw.fixFlush(e)
}

// maxPackItems bounds the fields of a constructor fixFlush turns into a
// call of pack: its items are arguments, which gopher-lua keeps in
// registers (MaxRegisters).
const maxPackItems = 150

// setFields sets the string keys and values after its first argument,
// a table, in order, and returns the table.
func setFields(L *lua.LState) int {
	t := L.CheckTable(1)
	for i := 2; i < L.GetTop(); i += 2 {
		t.RawSet(L.Get(i), L.Get(i+1))
	}
	L.SetTop(1)
	return 1
}

// stringKey reports whether a field's key is a string constant, which no
// positional item can share.
func stringKey(k ast.Expr) bool {
	_, ok := k.(*ast.StringExpr)
	return ok
}

// pure reports whether evaluating e can change nothing and depend on
// nothing that the constructor's other fields change: a constant, a name,
// a function, or a table of such.
func pure(e ast.Expr) bool {
	if isConst(e) {
		return true
	}
	switch x := e.(type) {
	case *ast.IdentExpr, *ast.FunctionExpr:
		return true
	case *ast.UnaryMinusOpExpr:
		_, ok := x.Expr.(*ast.NumberExpr)
		return ok
	case *ast.TableExpr:
		for _, f := range x.Fields {
			if f.Key != nil && !pure(f.Key) || !pure(f.Value) {
				return false
			}
		}
		return true
	}
	return false
}
