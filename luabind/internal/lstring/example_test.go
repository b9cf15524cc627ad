package lstring_test

import (
	"context"
	"fmt"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/lstring"
)

func ExampleRegister() {
	L := lua.NewState()
	defer L.Close()
	lstring.Register(L, L.GetGlobal("string").(*lua.LTable), lstring.Limits{MaxSize: 1 << 20})

	// The budget of one callback.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	L.SetContext(ctx)

	err := L.DoString(`
		print(string.gsub("hello world", "o", "0"))
		print(pcall(string.rep, "x", 1e9))
		string.find(string.rep("a", 50000), ".-.-.-.-.-.-.-b")`)
	fmt.Println(err.(*lua.ApiError).Object)
	// Output:
	// hell0 w0rld	2
	// false	string.rep: result too large (1000000000 bytes, limit 1048576)
	// <string>:4: context deadline exceeded
}
