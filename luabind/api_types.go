package luabind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Editor definitions of the API: a Lua language server reads a definition
// file (LuaCATS annotations on empty functions) to complete and check
// code it cannot run.

// TypesFile and TypesConfig are the files WriteTypes writes.
const (
	TypesFile   = "luahost.d.lua"
	TypesConfig = ".luarc.json"
)

// typeClasses are the classes of the definition file, in order, and
// their doc lines.
var typeClasses = []struct{ owner, doc string }{
	{"Script", "A script: the table a script file returns. Annotate it with ---@type luahost.Script."},
	{"Ctx", "ctx, the second argument of every callback: reused between calls, read it during the callback, do not keep it."},
	{"Entity", "An entity value: equal handles compare equal with ==; e:id() is a table key."},
	{"Vec3", "A vector: a table with number fields x, y and z; operators + - * / take a vector or a number on either side."},
	{"Event", "ev, the fourth argument of an event handler."},
	{"SpawnSpec", "The table ctx.spawn takes; every field is optional."},
	{"QuerySpec", "The filters ctx.query takes; they combine with AND."},
}

// WriteTypes writes dir/luahost.d.lua, the Lua language server definition
// file of the designer's API (with the functions registered with Register,
// typed loosely), and dir/.luarc.json, which points the server at it and
// lists the sandbox's globals. dir must exist; both files are replaced.
func (h *Host) WriteTypes(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, TypesFile), h.typesFile(), 0o644); err != nil {
		return err
	}
	cfg, err := h.typesConfig()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, TypesConfig), cfg, 0o644)
}

// typesConfig returns the .luarc.json.
func (h *Host) typesConfig() ([]byte, error) {
	cfg := map[string]any{
		"runtime.version":     "Lua 5.1",
		"runtime.builtin":     map[string]string{"io": "disable"},
		"workspace.library":   []string{TypesFile},
		"diagnostics.globals": h.GlobalNames(),
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	return append(b, '\n'), err
}

// typesFile returns the definition file.
func (h *Host) typesFile() []byte {
	var b bytes.Buffer
	b.WriteString("---@meta luahost\n")
	b.WriteString("-- Lua language server definitions of luahost's designer API, written by\n")
	b.WriteString("-- `luahost types`. Start a script with ---@type luahost.Script above its\n")
	b.WriteString("-- returned table to get ctx, entities and vectors completed and checked.\n")
	for _, c := range typeClasses {
		class := "luahost." + c.owner
		fmt.Fprintf(&b, "\n---%s\n---@class %s\n", c.doc, class)
		members := APIMembers(c.owner)
		for _, m := range members {
			switch m.Kind {
			case APIField:
				fmt.Fprintf(&b, "---@field %s%s %s %s\n", m.Name, optMark(c.owner), m.Type, m.Doc)
			case APICallback:
				fmt.Fprintf(&b, "---@field %s? %s %s\n", m.Name, funType(m), m.Doc)
			}
		}
		switch c.owner {
		case "Script":
			b.WriteString("---@field [string] any The script's own methods (timer targets) and values.\n")
		case "Vec3":
			for _, op := range []string{"add", "sub", "mul", "div"} {
				fmt.Fprintf(&b, "---@operator %s(luahost.Vec3|number): luahost.Vec3\n", op)
			}
			b.WriteString("---@operator unm: luahost.Vec3\n")
		}
		fmt.Fprintf(&b, "local %s = {}\n", c.owner)
		for _, m := range members {
			if m.Kind == APIFunction || m.Kind == APIMethod {
				writeFunc(&b, c.owner, m)
			}
		}
	}
	b.WriteString("\n-- Globals.\n")
	for _, m := range APIMembers("") {
		writeFunc(&b, "", m)
	}
	for _, f := range h.funcs {
		writeFunc(&b, "", APIMember{Name: f.name, Kind: APIFunction, Params: params(optional("...", "any")), Variadic: true,
			Returns: params(param("result", "any")), Doc: "A function the host registered: plain data in, plain data out."})
	}
	return b.Bytes()
}

// optMark is "?" for the fields of classes whose fields may be absent.
func optMark(owner string) string {
	if slices.Contains([]string{"Script", "SpawnSpec", "QuerySpec"}, owner) {
		return "?"
	}
	return ""
}

// funType returns m's signature as a LuaCATS fun type.
func funType(m APIMember) string {
	var ps []string
	for _, p := range m.Params {
		ps = append(ps, p.Name+": "+p.Type)
	}
	return "fun(" + strings.Join(ps, ", ") + ")"
}

// writeFunc writes the annotated definition of function m of table
// local ("" for a global).
func writeFunc(b *bytes.Buffer, local string, m APIMember) {
	fmt.Fprintf(b, "\n---%s\n", m.Doc)
	names := make([]string, len(m.Params))
	for i, p := range m.Params {
		names[i] = p.Name
		mark := ""
		if p.Optional && p.Name != "..." {
			mark = "?"
		}
		fmt.Fprintf(b, "---@param %s%s %s\n", p.Name, mark, p.Type)
	}
	for _, r := range m.Returns {
		fmt.Fprintf(b, "---@return %s %s\n", r.Type, r.Name)
	}
	if m.Overload != "" {
		fmt.Fprintf(b, "---@overload %s\n", m.Overload)
	}
	name := m.Name
	switch {
	case local != "" && m.Kind == APIMethod:
		name = local + ":" + m.Name
	case local != "":
		name = local + "." + m.Name
	}
	fmt.Fprintf(b, "function %s(%s) end\n", name, strings.Join(names, ", "))
}
