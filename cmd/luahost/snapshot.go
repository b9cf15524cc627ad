package main

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/luahost/luahost/internal/files"
	"github.com/luahost/luahost/internal/scene"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// snapFlags are run's snapshot flags: --save FILE saves the
// world after the last frame, before shutdown; --hash prints the SHA-256
// of that snapshot on stderr; --scripts DIR overrides the script folder
// of a snapshot being continued.
type snapFlags struct {
	save    string
	hash    bool
	scripts string
}

// maxSnapshotSize is the largest snapshot file read; the memory ceiling
// may allow less (snapshot.Limit).
const maxSnapshotSize = snapshot.MaxSize

func (sf *snapFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&sf.save, "save", "", "save the world to `FILE` after the last frame, before shutdown")
	fs.BoolVar(&sf.hash, "hash", false, "print the SHA-256 of the world's snapshot after the last frame on stderr (with --zones, of its zone-independent form)")
	fs.StringVar(&sf.scripts, "scripts", "", "script `DIR` of a snapshot being continued (default: the folder it records)")
}

// load starts the world of path: a scene (over zones when zones > 0),
// or a snapshot to continue. seedSet tells whether --seed was given,
// which a snapshot refuses: its seed is part of the world.
func (sf *snapFlags) load(path string, zones int, cfg loadConfig, seedSet bool) (sim, error) {
	data, err := files.ReadRegular(path, maxSnapshotSize)
	if sf.save != "" {
		if err := checkSaveTarget(sf.save, path, err == nil && scene.IsSnapshot(data)); err != nil {
			return nil, err
		}
	}
	if err != nil || !scene.IsSnapshot(data) {
		switch {
		case sf.scripts != "":
			return nil, fmt.Errorf("--scripts is for continuing a snapshot; a scene names its scripts folder itself")
		}
		return loadSim(path, zones, cfg)
	}
	if seedSet {
		return nil, fmt.Errorf("%s: --seed cannot change the seed of a saved world", path)
	}
	// Parsing takes several times the document's size: a snapshot the
	// memory ceiling cannot parse is refused before it is parsed.
	if err := snapshot.CheckSize(int64(len(data)), luabind.CeilingOf(cfg.ceiling)); err != nil {
		return nil, fmt.Errorf("%s: %v (--memory-ceiling raises the ceiling)", path, err)
	}
	snap, err := snapshot.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	dir := cmp.Or(sf.scripts, scene.SnapshotScripts(path, snap))
	switch {
	case snap.Zoned != nil:
		return loadZonedSnapshot(path, snap, zones, dir, cfg)
	case zones > 0:
		return nil, fmt.Errorf("%s: the snapshot of a world run without --zones continues as one world, not with --zones", path)
	}
	rt := runtime.New(runtime.Options{OnError: runtime.Discard})
	errs := luabind.NewErrorLog(rt, cfg.stderr)
	opts := cfg.hostOptions(dir)
	// A saved world's scripts must all load: there is no scene to wait in.
	opts.Lenient = false
	host, err := luabind.New(rt, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if cfg.attach != nil {
		if err := cfg.attach(host); err != nil {
			_ = host.Close()
			return nil, err
		}
	}
	if err := host.Restore(snap); err != nil {
		_ = host.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &world{rt: rt, host: host, errs: errs}, nil
}

// finish saves the world (--save) and prints its hash (--hash), after the
// last frame and before shutdown.
func (sf *snapFlags) finish(s sim, stderr io.Writer) error {
	if z, ok := s.(*zoned); ok {
		return sf.finishZoned(z, stderr)
	}
	w, ok := s.(*world)
	if !ok || (sf.save == "" && !sf.hash) {
		return nil
	}
	snap, err := w.host.Snapshot()
	if err != nil {
		return err
	}
	if sf.hash {
		// The hash is of the world alone: without the script folder,
		// which depends on where a file is written.
		data, err := snap.Marshal()
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "snapshot sha256 %x\n", sha256.Sum256(data))
	}
	if sf.save == "" {
		return nil
	}
	snap.ScriptsDir, err = scriptsDirFrom(sf.save, w.host.Dir())
	if err != nil {
		return err
	}
	data, err := snap.Marshal()
	if err != nil {
		return err
	}
	return writeFile(sf.save, data)
}

// finishZoned saves a zoned world (--save) and prints its hash (--hash):
// both of its zone-independent form, the same on any number of zones.
func (sf *snapFlags) finishZoned(z *zoned, stderr io.Writer) error {
	if sf.hash {
		sum, err := z.w.Hash()
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "world sha256 %x\n", sum)
	}
	if sf.save == "" {
		return nil
	}
	snap, err := z.w.Save()
	if err != nil {
		return err
	}
	if snap.ScriptsDir, err = scriptsDirFrom(sf.save, z.w.Host(0).Dir()); err != nil {
		return err
	}
	data, err := snap.Marshal()
	if err != nil {
		return err
	}
	return writeFile(sf.save, data)
}

// scriptsDirFrom returns the script folder dir relative to the folder of
// the file file, with slashes.
func scriptsDirFrom(file, dir string) (string, error) {
	absFile, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(filepath.Dir(absFile), absDir)
	if err != nil {
		return filepath.ToSlash(absDir), nil
	}
	return filepath.ToSlash(rel), nil
}

// checkSaveTarget checks, before the world starts, that --save can write
// save, so that a long run does not end in a save that fails: save is
// not a folder, its folder takes a new file, and it is not the scene
// being run (from), which saving would overwrite. Saving over the
// snapshot being continued is allowed.
func checkSaveTarget(save, from string, fromSnapshot bool) error {
	if info, err := os.Stat(save); err == nil && info.IsDir() {
		return fmt.Errorf("--save %s: is a folder", save)
	}
	if err := regularOrAbsent(save); err != nil {
		return fmt.Errorf("--save %s: %v", save, err)
	}
	if !fromSnapshot && sameFile(save, from) {
		return fmt.Errorf("--save %s: is the scene being run, which the snapshot would overwrite; save to another file", save)
	}
	tmp, err := os.CreateTemp(filepath.Dir(save), "."+filepath.Base(save)+".*")
	if err != nil {
		return fmt.Errorf("--save %s: cannot write in %s: %v", save, filepath.Dir(save), errors.Unwrap(err))
	}
	_ = tmp.Close()
	return os.Remove(tmp.Name())
}

// regularOrAbsent refuses a path that names something other than a
// regular file: a FIFO, a device or a socket, or a symbolic link to one.
// A save renamed over it would replace it (run as root, /dev/null).
func regularOrAbsent(path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return nil
	}
	kind := "a symbolic link to "
	if info.Mode()&os.ModeSymlink == 0 {
		kind = ""
	} else if info, err = os.Stat(path); err != nil {
		// A dangling link: the rename replaces the link itself.
		return nil
	}
	switch m := info.Mode(); {
	case m.IsRegular():
		return nil
	case m&os.ModeNamedPipe != 0:
		return fmt.Errorf("is %sa named pipe, not a regular file", kind)
	case m&os.ModeDevice != 0:
		return fmt.Errorf("is %sa device, not a regular file", kind)
	case m&os.ModeSocket != 0:
		return fmt.Errorf("is %sa socket, not a regular file", kind)
	}
	return fmt.Errorf("is %snot a regular file", kind)
}

// sameFile reports whether the paths a and b name one existing file.
func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

// writeFile writes data to path through a temporary file in the same
// folder, renamed over path, so that a crash never leaves half a file.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("save: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// Again at the rename: the path may have changed since the world
		// started.
		err = regularOrAbsent(path)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("save: %w", err)
	}
	return nil
}
