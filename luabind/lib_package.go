package luabind

import (
	lua "github.com/yuin/gopher-lua"
)

// bindPackage installs the state's package table: loaded,
// which require consults and fills (holding the standard libraries, as in
// Lua 5.1), and preload, the loaders require runs before looking for a
// file. Both belong to the script's own state; there is no path, cpath or
// loadlib.
func (st *state) bindPackage() {
	L := st.L
	g := L.G.Global
	st.loaded = L.CreateTable(0, 8)
	st.preload = L.CreateTable(0, 0)
	st.loading = L.NewUserData()
	pkg := L.CreateTable(0, 2)
	pkg.RawSetString("loaded", st.loaded)
	pkg.RawSetString("preload", st.preload)
	g.RawSetString("package", pkg)
	for _, name := range []string{lua.CoroutineLibName, "debug", lua.MathLibName, lua.OsLibName, "package", lua.StringLibName, lua.TabLibName} {
		st.loaded.RawSetString(name, g.RawGetString(name))
	}
	st.loaded.RawSetString("_G", g)
}
