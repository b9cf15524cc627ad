package luabind

import (
	"slices"

	lua "github.com/yuin/gopher-lua"
)

// GlobalNames returns, sorted, the names of every global a script starts
// with: the sandbox's library, print, require, vec3 and the functions
// registered with Register. A linter reads the rest as undefined.
func (h *Host) GlobalNames() []string {
	L := h.newSandbox()
	defer L.Close()
	st := &state{host: h, script: &Script{host: h, name: "globals"}, L: L}
	st.bind()
	var names []string
	L.G.Global.ForEach(func(k, _ lua.LValue) {
		if s, ok := k.(lua.LString); ok {
			names = append(names, string(s))
		}
	})
	slices.Sort(names)
	return names
}

// Properties returns a plain copy of the current version's properties
// (a *runtime.Table; nil when it has none).
func (s *Script) Properties() any {
	p, err := s.st.toPlain(s.st.props, "properties")
	if err != nil {
		// define checked that the properties are plain data.
		return nil
	}
	return p
}
