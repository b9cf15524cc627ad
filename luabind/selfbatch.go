package luabind

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
)

// selfBatch makes a state's self tables ahead, several in one run, so
// that the selves of instances attached one after another sit next to
// each other in memory whatever Lua code allocated between the attaches
// (a world whose entities an onCreate spawns, each from a spec
// table thrown away, must run its frame as fast as one made by the
// scene). gopher-lua's tables are a struct and two maps; made one at a
// time between a spawner's spec tables, which have the same sizes, the
// selves' parts alternate with dead specs' in the heap's spans, and a
// frame walks twice the memory.
//
// Runs are made for selves taken inside a callback (an onCreate's
// spawn, a handler's attach), where Lua allocates between attaches. One
// taken from Go (a scene's attaches, a reload's migration) is made
// alone: there, runs measured 2-7 % slower frames at 100,000 entities.
// A run makes one table in selfShare of those the state made so far, at
// least one and at most selfRun: a state with one instance makes one, a
// crowd's script makes runs of selfRun. What is made ahead and not yet
// taken is at most an eighth of a state's selves and selfRun tables.
type selfBatch struct {
	made []*lua.LTable
	next int
	// taken counts the selves handed out.
	taken int
}

const (
	selfRun   = 32
	selfShare = 8
)

// take returns a fresh deep copy of st's properties.
func (b *selfBatch) take(st *state) (*lua.LTable, error) {
	if b.next == len(b.made) {
		n := 1
		if st.host.nesting > 0 {
			n = min(max(b.taken/selfShare, 1), selfRun)
		}
		b.made, b.next = b.made[:0], 0
		for range n {
			if err := st.host.chargeCopy(st.propsBytes); err != nil {
				if len(b.made) == 0 {
					return nil, err
				}
				break
			}
			b.made = append(b.made, copyTable(st.L, st.props, 0))
		}
	}
	t := b.made[b.next]
	b.made[b.next] = nil
	b.next++
	b.taken++
	return t, nil
}

// ahead returns the tables made and not yet taken.
func (b *selfBatch) ahead() []*lua.LTable { return b.made[b.next:] }

// maxSharedKeys bounds the keys a state keeps one box of (shareKeys):
// selves have a few fields, and a state whose selves have thousands of
// distinct keys gains nothing from sharing them.
const maxSharedKeys = 64

// shareKeys gives the keys of self, which its onCreate has run on, the
// boxes the state's earlier selves have (gopherx.ShareKeys): a key an
// onCreate adds (self.angle = 0) is boxed by gopher-lua then, among
// whatever Lua allocated around it (a spawner's spec tables), and every
// write of the field in a frame compares its key with the box. With the
// box shared, a world spawned from Lua runs its frame as one made by the
// scene does.
func (st *state) shareKeys(self *lua.LTable) {
	gopherx.ShareKeys(self, func(s lua.LString, box lua.LValue) lua.LValue {
		if shared, ok := st.keyBoxes[string(s)]; ok {
			return shared
		}
		if len(st.keyBoxes) < maxSharedKeys {
			if st.keyBoxes == nil {
				st.keyBoxes = map[string]lua.LValue{}
			}
			st.keyBoxes[string(s)] = box
		}
		return box
	})
}

// newInstance returns a new instance record of self: inside a callback,
// cut from a block of selfRun, so that instances an onCreate attaches one
// after another lie next to each other, as their selves do (a frame reads
// every record). A block stays while any of its records lives: at most
// selfRun records of 32 bytes for one that outlives its neighbours.
func (st *state) newInstance(self *lua.LTable) *instance {
	if st.host.nesting == 0 {
		return &instance{self: self}
	}
	if len(st.instBlock) == 0 {
		st.instBlock = make([]instance, selfRun)
	}
	li := &st.instBlock[0]
	st.instBlock = st.instBlock[1:]
	li.self = self
	return li
}
