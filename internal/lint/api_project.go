package lint

import (
	"fmt"
	"slices"

	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/internal/luaast"
)

// nameUse is a literal event name or tag at a place of a file.
type nameUse struct {
	path string
	line int
	name string
}

// projectNames gathers, over every file of a project, the event names
// sent and handled and the tags set and queried, to find the ones that
// only one side knows: an event nobody handles is a misspelt name as
// often as not. A name computed at run time (ctx.emit(kind)) makes the
// other side unknowable, and that check is skipped for the project.
type projectNames struct {
	sent, handled                          []nameUse
	tagged, queried                        []nameUse
	dynamicSend, dynamicHandle, dynamicTag bool
	// props are the keys of the props each script is attached with, by
	// script name, from scenes, e:attach and spawn specs; openProps are
	// the scripts attached with props the linter cannot read, and
	// openAttach is set when an attach names its script at run time.
	props      map[string][]string
	openProps  map[string]bool
	openAttach bool
}

// attached records an attach of script with the props keys given; open
// when the props cannot be read.
func (p *projectNames) attached(script string, keys []string, open bool) {
	if p.props == nil {
		p.props, p.openProps = map[string][]string{}, map[string]bool{}
	}
	p.props[script] = append(p.props[script], keys...)
	if open {
		p.openProps[script] = true
	}
}

// attachesOf returns the props keys script is attached with, and whether
// they are all of them: no attach of the project gives it props, or names
// a script, that the linter cannot read.
func (p *projectNames) attachesOf(script string) (keys []string, closed bool) {
	return p.props[script], !p.openAttach && !p.openProps[script]
}

// tableKeys returns the string keys of a table constructor, and false
// when e is not one.
func tableKeys(e ast.Expr) ([]string, bool) {
	t, ok := e.(*ast.TableExpr)
	if !ok {
		return nil, false
	}
	var keys []string
	for _, f := range t.Fields {
		if k, ok := literal(f.Key); ok {
			keys = append(keys, k)
		}
	}
	return keys, true
}

// attachItem records one entry of a spawn spec's scripts list: a name, or
// {script = name, props = {...}}.
func (p *projectNames) attachItem(e ast.Expr) {
	if name, ok := literal(e); ok {
		p.attached(name, nil, false)
		return
	}
	t, ok := e.(*ast.TableExpr)
	if !ok {
		p.openAttach = true
		return
	}
	var name string
	var keys []string
	named, open := false, false
	for _, f := range t.Fields {
		k, _ := literal(f.Key)
		switch k {
		case "script":
			name, named = literal(f.Value)
		case "props":
			var isTable bool
			keys, isTable = tableKeys(f.Value)
			open = !isTable
		}
	}
	if !named {
		p.openAttach = true
		return
	}
	p.attached(name, keys, open)
}

// literal returns e's value when it is a string literal.
func literal(e ast.Expr) (string, bool) {
	s, ok := e.(*ast.StringExpr)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// collect adds the names a file uses. Sends are ctx.emit, ctx.broadcast
// and any :send; handlers are the keys of every events = {...} table
// (script tables, and the tables modules build them from); tags set are
// any :tag and every tags = {...} list (spawn specs); tags queried are
// query filters tag = "..." and any :hasTag.
func (p *projectNames) collect(f *luaFile) {
	path, stmts := f.path, f.stmts
	use := func(list *[]nameUse, dynamic *bool, e ast.Expr, line int) {
		if e == nil {
			return
		}
		if name, ok := literal(e); ok {
			*list = append(*list, nameUse{path, line, name})
		} else {
			*dynamic = true
		}
	}
	luaast.Exprs(stmts, func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.FuncCallExpr:
			method := x.Method
			if x.Receiver == nil {
				if a, ok := x.Func.(*ast.AttrGetExpr); ok {
					method, _ = literal(a.Key)
				}
			}
			arg := exprAt(x.Args, 0)
			switch {
			case method == "send" && x.Receiver != nil, (method == "emit" || method == "broadcast") && x.Receiver == nil:
				use(&p.sent, &p.dynamicSend, arg, x.Line())
			case method == "attach" && x.Receiver != nil:
				name, ok := literal(arg)
				if !ok {
					p.openAttach = true
					break
				}
				props := exprAt(x.Args, 1)
				keys, isTable := tableKeys(props)
				_, isNil := props.(*ast.NilExpr)
				p.attached(name, keys, props != nil && !isNil && !isTable)
			case method == "tag" && x.Receiver != nil:
				use(&p.tagged, &p.dynamicTag, arg, x.Line())
			case method == "hasTag" && x.Receiver != nil:
				if name, ok := literal(arg); ok {
					p.queried = append(p.queried, nameUse{path, x.Line(), name})
				}
			case method == "query" && x.Receiver == nil:
				if t, ok := arg.(*ast.TableExpr); ok {
					for _, f := range t.Fields {
						if k, ok := literal(f.Key); ok && k == "tag" {
							if name, ok := literal(f.Value); ok {
								p.queried = append(p.queried, nameUse{path, f.Value.Line(), name})
							}
						}
					}
				}
			}
		case *ast.TableExpr:
			for _, f := range x.Fields {
				k, ok := literal(f.Key)
				if ok && k == "events" {
					handlers, ok := f.Value.(*ast.TableExpr)
					if !ok {
						p.dynamicHandle = true
						continue
					}
					for _, h := range handlers.Fields {
						if name, ok := literal(h.Key); ok {
							p.handled = append(p.handled, nameUse{path, h.Key.Line(), name})
						}
					}
				}
				if ok && k == "scripts" {
					list, isTable := f.Value.(*ast.TableExpr)
					if !isTable {
						p.openAttach = true
						continue
					}
					for _, item := range list.Fields {
						p.attachItem(item.Value)
					}
				}
				if !ok || k != "tags" {
					continue
				}
				list, ok := f.Value.(*ast.TableExpr)
				if !ok {
					p.dynamicTag = true
					continue
				}
				for _, item := range list.Fields {
					use(&p.tagged, &p.dynamicTag, item.Value, item.Value.Line())
				}
			}
		}
	})
}

// tagScene adds the tags a scene gives an entity.
func (p *projectNames) tagScene(tags []string) {
	for _, t := range tags {
		p.tagged = append(p.tagged, nameUse{name: t})
	}
}

// projectFinding is a warning of the project-wide checks.
type projectFinding struct {
	use     nameUse
	message string
}

// check returns the names only one side knows, in the order found.
func (p *projectNames) check() []projectFinding {
	names := func(list []nameUse) []string {
		var out []string
		for _, u := range list {
			if !slices.Contains(out, u.name) {
				out = append(out, u.name)
			}
		}
		return out
	}
	var out []projectFinding
	one := func(list []nameUse, others []string, format string) {
		done := map[string]bool{}
		for _, u := range list {
			if slices.Contains(others, u.name) || done[u.name] {
				continue
			}
			done[u.name] = true
			msg := fmt.Sprintf(format, u.name)
			if s := memberSuggestion(u.name, others); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			out = append(out, projectFinding{u, msg})
		}
	}
	if !p.dynamicHandle {
		one(p.sent, names(p.handled), "event %q is sent but no script handles it")
	}
	if !p.dynamicSend {
		one(p.handled, names(p.sent), "event %q is handled but no script sends it")
	}
	if !p.dynamicTag {
		one(p.queried, names(p.tagged), "tag %q is queried but nothing sets it")
	}
	return out
}
