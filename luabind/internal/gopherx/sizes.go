package gopherx

// Sizes of gopher-lua's objects as luahost's memory measure counts them:
// estimates of what each costs on Go's heap (struct, map entry or slice
// slot rounded to its size class), not exact figures. A gopher-lua whose
// objects grow far past them makes the memory limits later, not
// never: the measure counts every object.
const (
	TableBytes    = 128
	EntryBytes    = 48
	StringBytes   = 16
	FunctionBytes = 64
	UpvalueBytes  = 48
	UserdataBytes = 64
	ThreadBytes   = 4096
)
