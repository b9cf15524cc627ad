package luaast

import "slices"

// A Scope is a block's local names, inside the scopes around it. The
// zero Scope is none: every name is a global.
type Scope struct {
	names  []string
	parent *Scope
	// fn is the depth of functions around the block: 0 at the chunk's
	// top level.
	fn int
	// params marks the scope of a function's parameters.
	params bool
}

// Block returns a scope for a block inside s (s may be nil: the chunk's
// top level), declaring names.
func (s *Scope) Block(names ...string) *Scope {
	return &Scope{names: names, parent: s, fn: s.Functions()}
}

// Function returns the scope of the body of a function defined in s,
// whose parameters are params.
func (s *Scope) Function(params ...string) *Scope {
	return &Scope{names: params, parent: s, fn: s.Functions() + 1, params: true}
}

// LastParam reports whether name, in s, is the last parameter of the
// function s is in (self for a method without others).
func (s *Scope) LastParam(name string) bool {
	fn := s.Functions()
	for sc := s; sc != nil; sc = sc.parent {
		if slices.Contains(sc.names, name) {
			return sc.params && sc.fn == fn && sc.names[len(sc.names)-1] == name
		}
	}
	return false
}

// Declare adds local names to s, from this point of its block on.
func (s *Scope) Declare(names ...string) { s.names = append(s.names, names...) }

// Functions returns how many functions enclose s (0 for nil and the
// chunk's top level).
func (s *Scope) Functions() int {
	if s == nil {
		return 0
	}
	return s.fn
}

// Has reports whether name is declared in s or a scope around it.
func (s *Scope) Has(name string) bool {
	for ; s != nil; s = s.parent {
		if slices.Contains(s.names, name) {
			return true
		}
	}
	return false
}

// Kind tells what name refers to in s: "local" (declared in the same
// function), "upvalue" (in a function around it) or "global".
func (s *Scope) Kind(name string) string {
	fn := s.Functions()
	for sc := s; sc != nil; sc = sc.parent {
		if slices.Contains(sc.names, name) {
			if sc.fn == fn {
				return "local"
			}
			return "upvalue"
		}
	}
	return "global"
}
