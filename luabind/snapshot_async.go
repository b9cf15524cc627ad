package luabind

import (
	"fmt"

	"github.com/luahost/luahost/snapshot"
)

// SnapshotAsync saves the world between frames without stopping the
// frame loop for the encoding: it copies the world's state, as Snapshot
// does (the part that must run between frames, on the driving
// goroutine), and encodes the copy to its JSON form on a goroutine of
// its own while the world runs on. The bytes are those that Snapshot
// followed by snapshot.World.Marshal gives at the same moment. Its
// refusals are Snapshot's. The copy costs O(the world's state) on the
// driving goroutine (the 10,000-spinner world: about half of a
// synchronous snapshot); the encoding, the other half, runs beside it.
func (h *Host) SnapshotAsync() (*PendingSnapshot, error) {
	w, err := h.Snapshot()
	if err != nil {
		return nil, err
	}
	p := &PendingSnapshot{world: w, done: make(chan struct{})}
	go p.encode()
	return p, nil
}

// PendingSnapshot is a snapshot being encoded (SnapshotAsync). Its
// methods are safe for concurrent use.
type PendingSnapshot struct {
	world *snapshot.World
	done  chan struct{}
	data  []byte
	err   error
}

func (p *PendingSnapshot) encode() {
	defer close(p.done)
	p.data, p.err = p.world.Marshal()
	if p.err != nil {
		p.err = fmt.Errorf("snapshot: %w", p.err)
	}
}

// Done returns a channel closed once the encoding is over.
func (p *PendingSnapshot) Done() <-chan struct{} { return p.done }

// Wait waits for the encoding and returns the snapshot's JSON form.
func (p *PendingSnapshot) Wait() ([]byte, error) {
	<-p.done
	return p.data, p.err
}

// World returns the saved world, the document before its encoding. It
// must not be changed before Wait returns.
func (p *PendingSnapshot) World() *snapshot.World { return p.world }
