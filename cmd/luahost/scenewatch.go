package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"time"

	"github.com/luahost/luahost/internal/scene"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// sceneQuiet is how long the scene file must stay unchanged before a save
// is read: an editor's save is one edit, not a half-written file.
const sceneQuiet = 50 * time.Millisecond

// sceneWatch applies saved edits of the scene file to a running world
// (run --watch), between frames: entities added spawn (their onCreate
// runs), entities removed are destroyed (their onDestroy runs at the
// frame's flush), changed props reach the instances whose value is still
// the previous one (a value the script changed is kept), and changed tags
// and transforms apply. Entities are matched by name, unnamed ones by
// their place among the unnamed. A save that does not parse is refused
// with its line and column and changes nothing.
type sceneWatch struct {
	path   string
	w      *world
	stderr io.Writer
	// cur is the scene as last applied, data its text.
	cur  *scene.Scene
	data []byte
	// handles are the entities of cur, by key.
	handles map[string]runtime.Handle
	// seen is the file's size and time when last looked at, since when.
	seen  fileStamp
	since time.Time
}

type fileStamp struct {
	size int64
	mod  time.Time
}

// newSceneWatch watches the scene file w was loaded from.
func newSceneWatch(w *world, stderr io.Writer) *sceneWatch {
	sw := &sceneWatch{path: w.path, w: w, stderr: stderr, cur: w.scene, data: w.data, handles: map[string]runtime.Handle{}}
	for i, k := range entityKeys(w.scene) {
		if i < len(w.handles) && !w.handles[i].IsZero() {
			sw.handles[k] = w.handles[i]
		}
	}
	sw.seen, _ = stampOf(w.path)
	return sw
}

func stampOf(path string) (fileStamp, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, false
	}
	return fileStamp{info.Size(), info.ModTime()}, true
}

// entityKeys returns the key of each entity of sc: "name:" and its name,
// or "#" and its place among the unnamed ones.
func entityKeys(sc *scene.Scene) []string {
	keys := make([]string, len(sc.Entities))
	unnamed := 0
	for i, e := range sc.Entities {
		if e.Name != "" {
			keys[i] = "name:" + e.Name
			continue
		}
		keys[i] = fmt.Sprintf("#%d", unnamed)
		unnamed++
	}
	return keys
}

// poll applies a save of the scene file once it has been quiet for
// sceneQuiet. It runs between frames.
func (sw *sceneWatch) poll(now time.Time) {
	st, ok := stampOf(sw.path)
	if !ok {
		return
	}
	if st != sw.seen {
		sw.seen, sw.since = st, now
		return
	}
	if sw.since.IsZero() || now.Sub(sw.since) < sceneQuiet {
		return
	}
	sw.since = time.Time{}
	data, err := scene.Read(sw.path)
	if err != nil || bytes.Equal(data, sw.data) {
		return
	}
	next, err := scene.Parse(sw.path, data)
	if err != nil {
		fmt.Fprintf(sw.stderr, "%v\n\tthe scene edit is not applied; the world runs on unchanged\n", err)
		sw.data = data
		return
	}
	sw.apply(next)
	sw.data = data
}

// apply makes the world follow the edit from sw.cur to next.
func (sw *sceneWatch) apply(next *scene.Scene) {
	rt, host := sw.w.rt, sw.w.host
	oldKeys, newKeys := entityKeys(sw.cur), entityKeys(next)
	old := map[string]scene.Entity{}
	for i, k := range oldKeys {
		old[k] = sw.cur.Entities[i]
	}
	var spawned, destroyed, changed int
	for _, k := range oldKeys {
		if slices.Contains(newKeys, k) {
			continue
		}
		if h, ok := sw.handles[k]; ok {
			if killed, _ := rt.Kill(h); killed {
				destroyed++
			}
		}
		delete(sw.handles, k)
	}
	for i, k := range newKeys {
		e := next.Entities[i]
		prev, existed := old[k]
		h, ok := sw.handles[k]
		if !existed {
			sw.handles[k] = sw.spawn(e)
			spawned++
			continue
		}
		if !ok || !rt.Alive(h) {
			continue
		}
		if sw.update(h, prev, e, host) {
			changed++
		}
	}
	sw.cur = next
	fmt.Fprintf(sw.stderr, "%s: applied: %d entities spawned, %d destroyed, %d changed\n", sw.path, spawned, destroyed, changed)
}

// spawn makes a new entity of the scene, as the start does.
func (sw *sceneWatch) spawn(e scene.Entity) runtime.Handle {
	rt := sw.w.rt
	h := rt.SpawnAt(placement(e))
	if e.Name != "" {
		_ = rt.SetName(h, e.Name)
	}
	for _, tag := range e.Tags {
		_ = rt.Tag(h, tag)
	}
	for _, s := range e.Scripts {
		if st, err := rt.State(h); err != nil || st != runtime.StatePending {
			break
		}
		if _, err := sw.w.host.Attach(h, s.Script, s.Props); err != nil && !isWaiting(err) {
			fmt.Fprintf(sw.stderr, "%s: entity %s: %v\n", sw.path, e.Name, err)
		}
	}
	if st, err := rt.State(h); err == nil && st == runtime.StatePending {
		_ = rt.Activate(h)
	}
	return h
}

// update applies the changes of one entity; it reports whether any was.
func (sw *sceneWatch) update(h runtime.Handle, prev, e scene.Entity, host *luabind.Host) bool {
	rt := sw.w.rt
	changed := false
	for part, v := range [][2]*[3]float64{runtime.Position: {prev.Position, e.Position}, runtime.Rotation: {prev.Rotation, e.Rotation}, runtime.Scale: {prev.Scale, e.Scale}} {
		if v[1] != nil && (v[0] == nil || *v[0] != *v[1]) {
			_ = rt.Set(h, runtime.Part(part), runtime.Vec3{X: v[1][0], Y: v[1][1], Z: v[1][2]})
			changed = true
		}
	}
	for _, t := range prev.Tags {
		if !slices.Contains(e.Tags, t) {
			_ = rt.Untag(h, t)
			changed = true
		}
	}
	for _, t := range e.Tags {
		if !slices.Contains(prev.Tags, t) {
			_ = rt.Tag(h, t)
			changed = true
		}
	}
	insts, _ := rt.Instances(h)
	for _, s := range e.Scripts {
		i := slices.IndexFunc(prev.Scripts, func(p scene.Script) bool { return p.Script == s.Script })
		if i < 0 {
			if _, err := host.Attach(h, s.Script, s.Props); err != nil && !isWaiting(err) {
				fmt.Fprintf(sw.stderr, "%s: entity %s: %v\n", sw.path, e.Name, err)
			}
			changed = true
			continue
		}
		if sw.retune(insts, s.Script, prev.Scripts[i].Props, s.Props) {
			changed = true
		}
	}
	for _, p := range prev.Scripts {
		if !slices.ContainsFunc(e.Scripts, func(s scene.Script) bool { return s.Script == p.Script }) {
			if n, _ := rt.DetachScript(h, p.Script); n > 0 {
				changed = true
			}
		}
	}
	return changed
}

// retune passes changed props of script to its instances among insts:
// each changed key reaches the instances whose value is still the
// previous one (the props' value, or the script's default).
func (sw *sceneWatch) retune(insts []*runtime.Instance, script string, prev, next map[string]any) bool {
	var defaults *runtime.Table
	if s := sw.w.host.Script(script); s != nil {
		defaults, _ = s.Properties().(*runtime.Table)
	}
	value := func(props map[string]any, k string) any {
		if v, ok := props[k]; ok {
			return v
		}
		if defaults != nil {
			return defaults.Get(k)
		}
		return nil
	}
	keys := map[string]bool{}
	for k := range prev {
		keys[k] = true
	}
	for k := range next {
		keys[k] = true
	}
	changed := false
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		a, b := value(prev, k), value(next, k)
		if reflect.DeepEqual(a, b) {
			continue
		}
		for _, inst := range insts {
			if inst.Script().Name() != script {
				continue
			}
			if ok, err := sw.w.host.Retune(inst, k, a, b); err != nil {
				fmt.Fprintf(sw.stderr, "%s: %v\n", sw.path, err)
			} else if ok {
				changed = true
			}
		}
	}
	return changed
}

func isWaiting(err error) bool { return errors.Is(err, luabind.ErrWaiting) }
