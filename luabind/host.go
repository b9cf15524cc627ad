package luabind

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/internal/luaast"
	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/compile"
	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/lstring"
	"github.com/luahost/luahost/pool"
	"github.com/luahost/luahost/runtime"
)

// Options configures a Host. The zero value works.
type Options struct {
	// Dir is the script directory: script "ai/patrol" is the file
	// Dir/ai/patrol.lua, and require("lib.vector") loads Dir/lib/vector.lua.
	// File names in error messages start with Dir as given. The default
	// (empty) value is "scripts".
	Dir string
	// FS, when set, is where scripts and modules are read from instead of
	// the folder Dir: script "ai/patrol" is the file ai/patrol.lua of FS
	// (an embed.FS through fs.Sub, an fstest.MapFS), and Dir only names
	// files in messages. Such a host cannot Watch. The file system is
	// trusted as given: an os.DirFS follows symbolic links out of its
	// folder, which Dir refuses. The default (nil) value reads Dir.
	FS fs.FS
	// Work is the work each callback may do, in instructions (VM
	// instructions, plus what library functions do in Go, charged by the
	// size of their input), with the callbacks it runs nested, before it
	// is stopped and its instance faulted: never wall time, so the same
	// callback on the same data stops at the same point in every run. The
	// default (zero) value takes Budget; a negative value turns the work
	// budget off for trusted scripts (the memory limit, the ceiling and
	// the backstop stay, each with its own option).
	Work int64
	// Budget is the work budget written as a duration, converted at
	// WorkPerSecond (100ms is 10 million instructions); it is used when
	// Work is zero. The default (zero) value is DefaultWork; a negative
	// value turns the work budget off.
	Budget time.Duration
	// WallClock is the backstop for what work cannot count: a callback
	// (with the callbacks it runs) still running after this much wall
	// time, such as one blocked in a registered Go function, is stopped
	// when control is back in Lua and faulted with ErrWallClock. It is
	// the one stop that depends on the machine's load. The default
	// (zero) value is DefaultWallClock; a negative value turns it off.
	// With Work, MemoryLimit, WallClock and MemoryCeiling all off,
	// states carry no context and gopher-lua skips its per-instruction
	// check; runtime.Runtime.StepContext can then stop a frame only
	// between callbacks.
	WallClock time.Duration
	// MemoryLimit bounds what a single callback (with the callbacks it
	// runs) may keep: the growth of this host's Lua data (states, selves,
	// blackboard) during it. It counts nothing of another runtime's or
	// goroutine's allocations: the process's allocations only tell the
	// watchdog when to measure this host's data (after every quarter of
	// the limit allocated during the callback), and the first measure is
	// the callback's base; a callback whose data grew past three quarters
	// of the limit over its base is stopped. So a callback is stopped once
	// it keeps between three quarters of the limit and the limit plus what
	// it allocated before its base; garbage it drops is not counted (its
	// work budget bounds that). The limit holds whatever the work budget,
	// also with it off. The default (zero) value is DefaultMemoryLimit; a
	// negative value turns the limit off.
	MemoryLimit int64
	// MemoryCeiling is the live heap, in bytes, that the process's Lua
	// data must stay under: when the live heap after a garbage collection
	// nears it (seven eighths), at the end of a frame, the instance whose
	// data is largest is faulted, so that growth across frames stops
	// before the process dies of it; a callback during which the live
	// heap grew by a sixteenth of the ceiling, up to seven eighths of it,
	// is stopped (ErrMemory), also one that would never return. It is
	// never above GOMEMLIMIT when that is set. The default (zero) value
	// is DefaultCeiling(); a negative value turns the ceiling off.
	MemoryCeiling int64
	// MaxStringSize is the largest string that string.rep, string.gsub,
	// string.format, table.concat and os.date may build. The default
	// (zero) value is 16 MiB.
	MaxStringSize int
	// Stdout receives what scripts print, flushed at the end of every
	// frame. The default (nil) value is os.Stdout.
	Stdout io.Writer
	// Log receives ctx.log lines, hot-reload notices and the watcher's
	// warnings as text lines, when there is no Logger. The default (nil)
	// value is os.Stderr.
	Log io.Writer
	// Logger, when set, receives ctx.log lines (level Info: the
	// arguments are the message; "script", "entity" and "frame" are
	// attributes), hot-reload notices (Info: "script", "frame",
	// "instances", "duration") and the watcher's warnings (Warn), in
	// place of Log. Script errors are the runtime's to log: give it the
	// logger in runtime.Options.Logger (or runtime.Slog as OnError). The
	// default (nil) value is the runtime's Options.Logger; when that is
	// nil too, lines go to Log.
	Logger *slog.Logger
	// Chunks is the cache of compiled chunks. Hosts that share one (on
	// any goroutines) compile each source once. The default (nil) value is
	// a cache of the host's own.
	Chunks *Chunks
	// StatePool is how many fresh sandboxed states are kept ready for
	// loads and reloads; the pool is refilled at the end of every frame.
	// The default (zero) value is 1.
	StatePool int
	// Timing is how callbacks are counted and timed for Stats. The
	// default (zero) value is TimingSampled.
	Timing Timing
	// OnCallback, when set, is called on the driving goroutine after
	// every Lua callback with its timing; it must not call into the host.
	// It implies TimingExact. The default (nil) value calls nothing.
	OnCallback func(CallbackTiming)
	// OnReload, when set, is called on the driving goroutine after every
	// hot reload of a loaded script (by Reload or by the watcher),
	// applied or refused, with its script, the instances migrated, the
	// time it took, or the refusal. It runs between frames, after the
	// reload's side effects were applied, and may call the host. A
	// refusal is also reported through the runtime's OnError when the
	// watcher found it. The default (nil) value calls nothing.
	OnReload func(ReloadInfo)
	// ProfileLabels runs every callback under the runtime/pprof labels
	// "script" (its name) and "callback" (such as "onUpdate" or
	// "events.hit"), so that a CPU profile splits the time by script. The
	// driving goroutine's labels are replaced during a callback and
	// cleared after it. It implies TimingExact. The default (false) value
	// sets no labels.
	ProfileLabels bool
	// SkipNotSaveable makes Snapshot, Export and ExportAll leave out the
	// instances of Go-native scripts that are not runtime.Savers (they
	// are not in the document, so a restore or an import goes on without
	// them), instead of refusing with an error wrapping
	// runtime.ErrNotSaveable. The default (false) value refuses.
	SkipNotSaveable bool
	// MigrateImports makes Import and ImportAll accept an entity exported
	// under another version of one of its scripts: each such instance
	// arrives with its saved self and then gets the script's
	// onReload(self, old, ctx) when it has one, old being a copy of the
	// saved self, as a hot reload migrates. The default (false) value
	// refuses such an entity with an error wrapping ErrScriptVersion.
	MigrateImports bool
	// Lenient makes Attach of a script that does not load wait instead of
	// failing, so that one broken script does not stop a world being
	// edited: the load error is reported through the runtime's OnError
	// (once per script), Attach returns an error wrapping ErrWaiting and
	// the load error, and the attachment is kept. When a later Reload of
	// the script (by the watcher, or a call) loads it, every kept
	// attachment whose entity still lives is made, in the order they were
	// asked for, and its onCreate runs then. Only Attach waits: a
	// script's own e:attach or ctx.spawn of a broken script fails as
	// always. The default (false) value refuses such an Attach with the
	// load error, as a build that must stay strict wants.
	Lenient bool
}

// DefaultBudget is DefaultWork written as a duration.
const DefaultBudget = DefaultWork * (time.Second / WorkPerSecond)

// DefaultMemoryLimit is the per-callback allocation limit when
// Options.MemoryLimit is zero: far above what a frame's callback needs,
// low enough that a runaway stops before the process grows by gigabytes.
const DefaultMemoryLimit = 64 << 20

// Host runs Lua scripts on a runtime: it loads scripts, gives each one its
// own sandboxed Lua state, and implements runtime.Script for them, so Lua
// and Go-native scripts share one schedule. Like its runtime, a Host is
// driven by one goroutine and is not safe for concurrent use, but for
// Stats, which any goroutine may call (a metrics endpoint's); separate
// Hosts on separate runtimes may run in parallel and share a Chunks.
type Host struct {
	rt      *runtime.Runtime
	opts    Options
	chunks  *Chunks
	budget  *budget.Budget
	states  *pool.Pool[lua.LState]
	scripts map[string]*Script
	order   []*Script
	funcs   []registered
	out     *bufio.Writer
	log     io.Writer
	logger  *slog.Logger

	// setupSpawns are entities spawned by scripts outside a frame; they
	// become Active before the next frame.
	setupSpawns []runtime.Handle
	// building are the states whose chunk or onReload runs before they
	// join a script, for the memory limit's measure.
	building []*state
	// seen is the set of objects a measure of the Lua data saw, kept
	// for the next one.
	seen *pointerSet
	// ceilingMark is the live heap at which the ceiling last acted.
	ceilingMark int64
	// copied is what properties copies made since the heap was last
	// read for them (chargeCopy).
	copied   int64
	deferred deferred
	reloads  int
	// timerSeq is the id of the last timer made.
	timerSeq int64
	// query is the buffer of ctx.query's results.
	query []runtime.Handle
	// nesting is how many protected calls run now, one inside another.
	nesting int
	// unwinding holds the first register of each running sandbox pcall,
	// the innermost last: where its error handler closes upvalues.
	unwinding []int
	clock     clock
	// published is what Stats reads; frameTimes and frameStart are the
	// frames' durations so far and the running one's start (stats.go).
	published  published
	frameTimes FrameTimes
	frameStart time.Time
	refused    map[string]string
	// waiting are the attachments of scripts that did not load, kept
	// under Options.Lenient (waiting.go).
	waiting map[string][]waitingAttach
	watch   *watcher
	closed  bool
	// debug is the host's debugger, once asked for (debug.go).
	debug *Debugger
	// zoning is the host's part in a zoned world (zone.go), world its
	// zoned rules (world.go).
	zoning zoning
	world  worldRules
	zoned  zonedRules
	// console is set while Eval runs a snippet: require and Load read no
	// file.
	console bool
	// reloadObservers are the functions given to ObserveReloads.
	reloadObservers []func(ReloadInfo)
	// natives are the Go-native scripts that RegisterScript made known
	// to Restore and Import, by name.
	natives map[string]runtime.Saver
	// goPanic is a Go panic of the embedder's code that a script's call
	// met, pending until the callback around it fails of it (gopanic.go).
	goPanic *runtime.PanicError
}

type registered struct {
	name string
	fn   Func
}

// Func is a Go function exposed to scripts with Register. It receives the
// calling instance (nil when called from a chunk's top-level code) and the
// Lua arguments as plain data (see runtime.Plain); its result must be
// plain data, of any Go type runtime.Plain accepts. A returned error
// becomes a Lua error in the caller.
type Func func(inst *runtime.Instance, args []any) (any, error)

// New returns a Host running scripts from opts.Dir on rt. Closing rt (or
// the Host) closes every Lua state.
func New(rt *runtime.Runtime, opts Options) (*Host, error) {
	if err := gopherx.Check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGopherLua, err)
	}
	gopherx.LimitArrayPart()
	if opts.Dir == "" {
		opts.Dir = "scripts"
	}
	opts.Work = workOf(opts)
	if opts.WallClock == 0 {
		opts.WallClock = DefaultWallClock
	}
	if opts.MemoryLimit == 0 {
		opts.MemoryLimit = DefaultMemoryLimit
	}
	if opts.MemoryCeiling >= 0 {
		opts.MemoryCeiling = CeilingOf(opts.MemoryCeiling)
	}
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.Chunks == nil {
		opts.Chunks = NewChunks()
	}
	if opts.StatePool == 0 {
		opts.StatePool = 1
	}
	if opts.FS == nil {
		if info, err := os.Stat(opts.Dir); err != nil {
			return nil, fmt.Errorf("script directory: %w", err)
		} else if !info.IsDir() {
			return nil, fmt.Errorf("script directory %s: not a directory", opts.Dir)
		}
	}
	h := &Host{
		rt:      rt,
		opts:    opts,
		chunks:  opts.Chunks,
		scripts: make(map[string]*Script),
		refused: make(map[string]string),
		seen:    &pointerSet{},
		out:     bufio.NewWriter(opts.Stdout),
		log:     opts.Log,
		logger:  opts.Logger,
		clock:   newClock(opts),
	}
	if h.logger == nil {
		h.logger = rt.Logger()
	}
	if opts.Work > 0 || opts.MemoryLimit > 0 || opts.WallClock > 0 || opts.MemoryCeiling > 0 {
		h.budget = budget.New(budget.Options{
			Work:    max(opts.Work, 0),
			Memory:  uint64(max(opts.MemoryLimit, 0)),
			Measure: h.measureLua,
			Wall:    max(opts.WallClock, 0),
			Ceiling: max(opts.MemoryCeiling, 0),
		})
	}
	h.states = pool.New(pool.Options[lua.LState]{
		Limit: opts.StatePool,
		New:   h.newSandbox,
		Reset: func(*lua.LState) {},
		Drop:  func(L *lua.LState) { L.Close() },
	})
	h.refill()
	if b := h.budget; b != nil {
		rt.OnInterrupt(func(stop bool) {
			if stop {
				b.Cancel()
			} else {
				b.Resume()
			}
		})
	}
	rt.BeforeStep(h.beforeStep)
	rt.FrameStart(h.deliver)
	rt.AfterStep(h.afterStep)
	rt.OnClose(h.shutdown)
	rt.OnReport(h.countFault)
	h.publish()
	return h, nil
}

// Runtime returns the host's runtime.
func (h *Host) Runtime() *runtime.Runtime { return h.rt }

// Dir returns the script directory.
func (h *Host) Dir() string { return h.opts.Dir }

// afterStep runs at the end of every frame: no callback runs until the
// next one, script output is written out, and the pool of fresh states is
// refilled for the next load or reload.
func (h *Host) afterStep() {
	if h.budget != nil {
		h.budget.Idle()
	}
	h.checkCeiling()
	if h.world.on {
		h.forgetGone()
	}
	h.Flush()
	h.refill()
	h.frameTimes.add(time.Since(h.frameStart))
	h.publish()
}

// refill builds fresh sandboxed states until Options.StatePool are ready.
// A state that ran a script is closed, never pooled again: its globals
// would be ghost data for the next script.
func (h *Host) refill() {
	for h.states.Idle() < h.opts.StatePool {
		h.states.Put(h.newSandbox())
	}
}

// Flush writes out what scripts printed so far. Step calls it at the end
// of every frame, and Close at the end.
func (h *Host) Flush() { h.out.Flush() }

// Close closes the runtime (every instance gets its onDestroy),
// then every Lua state, the watcher and the budget's watchdog.
func (h *Host) Close() error { return h.rt.Close() }

func (h *Host) shutdown() {
	if h.closed {
		return
	}
	h.closed = true
	if h.watch != nil {
		h.watch.close()
	}
	for _, s := range h.order {
		s.st.close()
	}
	h.states.Drain()
	forgetHost(h)
	if h.budget != nil {
		h.budget.Close()
	}
	h.Flush()
	h.publish()
}

// beforeStep runs between frames: pending reloads are applied and
// entities spawned by scripts during setup become Active.
func (h *Host) beforeStep() {
	h.frameStart = time.Now()
	if h.watch != nil {
		h.applyWatched()
	}
	for _, e := range h.setupSpawns {
		if st, err := h.rt.State(e); err == nil && st == runtime.StatePending {
			// A cancelled entity refuses activation; that is fine.
			_ = h.rt.Activate(e)
		}
	}
	h.setupSpawns = h.setupSpawns[:0]
	if h.world.on && !h.zoned.viewSet {
		h.zoned.view = NewView(h.AppendView(nil, h.zoning.zone))
	}
}

// Register exposes fn to every script as the global function name. Call
// it before loading scripts or after: loaded scripts get it too. A name
// that is not a Lua name, that the sandbox already defines (print,
// require, math, _G and every other global a script starts with), or
// that was registered before is refused with an error, and nothing
// changes.
func (h *Host) Register(name string, fn Func) error {
	if !compile.IsName(name) {
		return fmt.Errorf("register %q: not a valid Lua name", name)
	}
	if h.closed {
		return fmt.Errorf("register %q: %w", name, runtime.ErrClosed)
	}
	if fn == nil {
		return fmt.Errorf("register %q: nil function", name)
	}
	if slices.ContainsFunc(h.funcs, func(r registered) bool { return r.name == name }) {
		return fmt.Errorf("register %q: already registered", name)
	}
	if h.sandboxGlobal(name) {
		return fmt.Errorf("register %q: the sandbox's own global %s cannot be replaced", name, name)
	}
	h.funcs = append(h.funcs, registered{name, fn})
	for _, s := range h.order {
		s.st.bindFunc(name, fn)
	}
	return nil
}

// sandboxGlobal reports whether name is a global every script starts
// with: one of a fresh sandbox's globals, or one that bind installs.
func (h *Host) sandboxGlobal(name string) bool {
	if name == "print" || name == "require" {
		return true
	}
	L := h.states.Get()
	defer h.states.Put(L)
	return L.G.Global.RawGetString(name) != lua.LNil
}

// Scripts returns the loaded scripts in load order.
func (h *Host) Scripts() []*Script { return h.order }

// Script returns the loaded script called name, or nil.
func (h *Host) Script(name string) *Script { return h.scripts[name] }

// Instances yields the live instances of the Lua script called name, in
// attach order; nothing when it is not loaded. Like the runtime's
// iterators (runtime.Runtime.AllInstances, QueryInstances), it takes its
// set when iteration starts. With Self, it reads every instance's state:
//
//	for inst := range host.Instances("ai/guard") {
//		self, err := host.Self(inst)
//		...
//	}
func (h *Host) Instances(name string) iter.Seq[*runtime.Instance] {
	s := h.scripts[name]
	if s == nil {
		return func(func(*runtime.Instance) bool) {}
	}
	return h.rt.InstancesOf(s)
}

// Load returns the script called name, loading it on first use: the file
// is read, compiled (once, through the chunk cache), and its chunk run in a
// fresh sandboxed state under the budget; it must return a table. A
// failure is a *LoadError whose message starts with file:line.
func (h *Host) Load(name string) (*Script, error) {
	if s := h.scripts[name]; s != nil {
		return s, nil
	}
	if h.closed {
		return nil, runtime.ErrClosed
	}
	file, path, err := h.locate(name)
	if err != nil {
		return nil, err
	}
	if h.console {
		return nil, &LoadError{Script: name, File: file, Message: fmt.Sprintf("%s: script %q is not loaded, and the console reads no files", file, name)}
	}
	src, err := h.readSource(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &LoadError{Script: name, File: file, Message: fmt.Sprintf("%s: script %q not found", file, name), Err: err}
	case err != nil:
		return nil, &LoadError{Script: name, File: file, Message: fmt.Sprintf("%s: script %q refused: %s", file, name, refusal("the file", err)), Err: err}
	}
	return h.add(name, file, path, src)
}

// add builds the script called name from src and registers it as loaded.
func (h *Host) add(name, file, path string, src []byte) (*Script, error) {
	s := &Script{host: h, name: name, file: file, path: path}
	st, err := h.build(s, src)
	if err != nil {
		return nil, err
	}
	s.st = st
	h.scripts[name] = s
	h.order = append(h.order, s)
	h.publish()
	return s, nil
}

// locate validates a script name and returns its display and OS paths.
func (h *Host) locate(name string) (file, path string, err error) {
	if !scriptName.MatchString(name) {
		return "", "", &LoadError{Script: name, Message: fmt.Sprintf("invalid script name %q (want a path under the script directory without .lua, such as \"ai/patrol\")", name)}
	}
	path = filepath.Join(h.opts.Dir, filepath.FromSlash(name)+".lua")
	return filepath.ToSlash(path), path, nil
}

// Check loads the script called name into a throw-away state, as Load
// would, and reports what would stop a scene: a compile error, a failing
// chunk, a chunk that does not return a table. Nothing stays loaded.
func (h *Host) Check(name string) error {
	return h.check(name, true)
}

// CheckModule is Check for a module loaded with require: its chunk may
// return anything.
func (h *Host) CheckModule(name string) error {
	return h.check(name, false)
}

func (h *Host) check(name string, script bool) error {
	if h.closed {
		return runtime.ErrClosed
	}
	file, path, err := h.locate(name)
	if err != nil {
		return err
	}
	src, err := h.readSource(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &LoadError{Script: name, File: file, Message: fmt.Sprintf("%s: %v", file, errors.Unwrap(err)), Err: err}
	case err != nil:
		return &LoadError{Script: name, File: file, Message: fmt.Sprintf("%s: script %q refused: %s", file, name, refusal("the file", err)), Err: err}
	}
	s := &Script{host: h, name: name, file: file, path: path}
	var st *state
	if script {
		st, err = h.build(s, src)
	} else {
		st, _, err = h.run(s, src)
	}
	if err != nil {
		return err
	}
	st.close()
	return nil
}

// Attach attaches the script called name (loaded on first use) to entity
// e: the new instance's self is a deep copy of the script's properties
// whose top-level keys are overridden by props, and its onCreate runs now.
// props' values may be any plain data (see runtime.Plain: Go slices,
// maps with string keys and structs too). A script that does not load,
// props that are not plain data (the error names the value's path,
// "props.items[3]"), or an entity that cannot take scripts is an error;
// an onCreate that fails is reported through the runtime and faults the
// instance.
func (h *Host) Attach(e runtime.Handle, name string, props map[string]any) (*runtime.Instance, error) {
	// No props, a scene entity's usual, is nil rather than an empty
	// table, which attach reads the same.
	var p any
	if len(props) > 0 {
		var err error
		if p, err = runtime.PlainAt("props", props); err != nil {
			return nil, fmt.Errorf("attach %s: %w", name, err)
		}
	}
	inst, err := h.attach(e, name, p)
	if err != nil && h.opts.Lenient {
		return nil, h.wait(e, name, p, err)
	}
	return inst, err
}

func (h *Host) attach(e runtime.Handle, name string, props any) (*runtime.Instance, error) {
	if !h.rt.Alive(e) {
		return nil, fmt.Errorf("attach %s: %w %s", name, runtime.ErrStaleHandle, e)
	}
	s, err := h.Load(name)
	if err != nil {
		return nil, err
	}
	st := s.st
	self, err := st.newSelf(props)
	if err != nil {
		return nil, fmt.Errorf("attach %s: %w", name, err)
	}
	li := st.newInstance(self)
	li.setProps(propKeys(props))
	inst, err := h.rt.Attach(e, s, li)
	if err == nil {
		st.shareKeys(li.self)
	}
	h.publishRuntime()
	return inst, err
}

// Chunks caches compiled chunks: each source is compiled once to a
// function prototype, which every state (of any Host, on any goroutine)
// then instantiates. Prototypes are never changed after compilation, so
// sharing them is safe. A Chunks is safe for concurrent use.
type Chunks struct {
	mu sync.Mutex
	m  map[chunkKey]chunk
}

// chunkKey names a cached chunk: its file and the string size bound its
// concatenations were compiled with (hosts sharing a Chunks may differ).
type chunkKey struct {
	file      string
	maxString int
}

type chunk struct {
	sum   [sha256.Size]byte
	proto *lua.FunctionProto
}

// NewChunks returns an empty chunk cache.
func NewChunks() *Chunks { return &Chunks{m: make(map[chunkKey]chunk)} }

// Precompile compiles src under the chunk name file with the default
// MaxStringSize and keeps it cached (the latest source of each file
// stays), so that a host sharing c loads it without compiling. A syntax
// error is a *LoadError "file:line: message near 'token'" whose Err is a
// *SyntaxError.
//
// luahost's API promises no gopher-lua type: the VM is an implementation
// detail that a release may upgrade or replace, so no exported name of
// luabind takes or returns one, and compiled chunks stay inside the
// cache.
func (c *Chunks) Precompile(script, file string, src []byte) error {
	_, err := c.compile(script, file, src, lstring.DefaultMaxSize)
	return err
}

// Compile is Precompile returning gopher-lua's prototype.
//
// Deprecated: luahost's API promises no gopher-lua type; use Precompile.
// Compile is removed in the next release.
func (c *Chunks) Compile(script, file string, src []byte) (*lua.FunctionProto, error) {
	return c.compile(script, file, src, lstring.DefaultMaxSize)
}

// compile is Compile for a host whose strings are bounded by maxString.
func (c *Chunks) compile(script, file string, src []byte, maxString int) (*lua.FunctionProto, error) {
	key := chunkKey{file, maxString}
	sum := sha256.Sum256(src)
	c.mu.Lock()
	ch, ok := c.m[key]
	c.mu.Unlock()
	if ok && ch.sum == sum {
		return ch.proto, nil
	}
	proto, err := compile.Compile(luaast.FileSource(string(src)), file, maxString)
	if err != nil {
		return nil, compileError(script, file, src, err)
	}
	trimProto(proto)
	c.mu.Lock()
	c.m[key] = chunk{sum: sum, proto: proto}
	c.mu.Unlock()
	return proto, nil
}

// maxString is the host's string size bound (Options.MaxStringSize).
func (h *Host) maxString() int {
	if h.opts.MaxStringSize > 0 {
		return h.opts.MaxStringSize
	}
	return lstring.DefaultMaxSize
}
