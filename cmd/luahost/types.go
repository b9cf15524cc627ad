package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// cmdTypes is "luahost types DIR": it writes the Lua language server's
// definitions of the designer API, DIR/luahost.d.lua and DIR/.luarc.json,
// making DIR when it does not exist.
func cmdTypes(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("types", "luahost types DIR", stderr)
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return usageStatus(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "luahost types: want one DIR")
		fs.Usage()
		return exitUsage
	}
	dir := pos[0]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "luahost types: %v\n", err)
		return exitErrors
	}
	h, err := luabind.New(runtime.New(runtime.Options{OnError: runtime.Discard}), luabind.Options{Dir: dir, Stdout: io.Discard, Log: io.Discard})
	if err != nil {
		fmt.Fprintf(stderr, "luahost types: %v\n", err)
		return exitErrors
	}
	defer h.Close()
	if err := h.WriteTypes(dir); err != nil {
		fmt.Fprintf(stderr, "luahost types: %v\n", err)
		return exitErrors
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(dir, luabind.TypesFile), filepath.Join(dir, luabind.TypesConfig))
	return exitOK
}
