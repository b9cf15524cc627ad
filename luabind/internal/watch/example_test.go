package watch_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/luahost/luahost/luabind/internal/watch"
)

func ExampleNew() {
	dir, err := os.MkdirTemp("", "scripts")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	w, err := watch.New(watch.Options{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()

	// An editor saves a script in a new subdirectory.
	if err := os.Mkdir(filepath.Join(dir, "ai"), 0o755); err != nil {
		log.Fatal(err)
	}
	src := "return { speed = 2 }\n"
	if err := os.WriteFile(filepath.Join(dir, "ai", "patrol.lua"), []byte(src), 0o644); err != nil {
		log.Fatal(err)
	}

	// The goroutine that drives the runtime waits for Ready (or polls Drain
	// between frames) and compiles what it gets.
	timeout := time.After(5 * time.Second)
	for {
		select {
		case <-w.Ready():
			changes := w.Drain()
			for _, c := range changes {
				fmt.Printf("%s removed=%v: %s", c.Path, c.Removed, c.Source)
			}
			if len(changes) > 0 {
				return
			}
		case err := <-w.Errors():
			log.Fatal(err)
		case <-timeout:
			log.Fatal("no change")
		}
	}
	// Output:
	// ai/patrol.lua removed=false: return { speed = 2 }
}
