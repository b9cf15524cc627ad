package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// zone is one half of the road, [lo, hi) along x: a world driven by its
// own goroutine (loop), which hands the walkers that leave it to the
// next zone.
type zone struct {
	name   string
	lo, hi float64
	rt     *runtime.Runtime
	host   *luabind.Host
	logger *slog.Logger
	next   *zone

	// inbox holds the walkers handed over to this zone, which it
	// imports between two of its frames.
	mu    sync.Mutex
	inbox []snapshot.Entity

	handedOver, snapshots int
	// writes are the snapshot files being written; written is the frame
	// of the newest one on disk.
	writes  sync.WaitGroup
	writeMu sync.Mutex
	written uint64
}

func newZone(name string, lo, hi float64, cfg config, logger *slog.Logger) (*zone, error) {
	rt, host, err := newWorld(cfg, logger)
	if err != nil {
		return nil, err
	}
	return &zone{name: name, lo: lo, hi: hi, rt: rt, host: host, logger: logger.With("zone", name)}, nil
}

// spawnWalker makes an Active walker at x, with the Lua walker and the
// Go-native stamina.
func (z *zone) spawnWalker(x float64) {
	e := z.rt.Spawn()
	_ = z.rt.Set(e, runtime.Position, runtime.Vec3{X: x})
	speed := 4.0
	if int(x)%2 == 1 {
		speed = -speed
	}
	if _, err := z.host.Attach(e, "walker", map[string]any{"speed": speed}); err != nil {
		panic(err)
	}
	if _, err := z.rt.Attach(e, stamina{}, &energy{}); err != nil {
		panic(err)
	}
	_ = z.rt.Activate(e)
}

// loop drives the zone at cfg.hz frames a second until ctx is done or it
// ran cfg.frames frames.
func (z *zone) loop(ctx context.Context, cfg config) error {
	if cfg.scripts != "" {
		stop, err := z.host.Watch(ctx)
		if err != nil {
			return err
		}
		defer stop()
	}
	dt := 1 / cfg.hz
	tick := time.NewTicker(time.Duration(float64(time.Second) * dt))
	defer tick.Stop()
	for cfg.frames == 0 || z.rt.Frame() < cfg.frames {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if err := z.receive(); err != nil {
			return err
		}
		if err := z.rt.Step(dt); err != nil {
			return err
		}
		if err := z.handOver(); err != nil {
			return err
		}
		if cfg.save != "" && z.rt.Frame()%cfg.snapshotEvery == 0 {
			if err := z.snapshotAsync(cfg.save); err != nil {
				return err
			}
		}
	}
	return nil
}

// send queues walkers for z; safe from any goroutine.
func (z *zone) send(walkers []snapshot.Entity) {
	z.mu.Lock()
	z.inbox = append(z.inbox, walkers...)
	z.mu.Unlock()
}

// receive imports the walkers handed over to z, between its frames.
func (z *zone) receive() error {
	z.mu.Lock()
	walkers := z.inbox
	z.inbox = nil
	z.mu.Unlock()
	if len(walkers) == 0 {
		return nil
	}
	_, err := z.host.ImportAll(walkers)
	return err
}

// handOver exports the walkers that left [lo, hi) to the next zone.
func (z *zone) handOver() error {
	var leaving []runtime.Handle
	for e := range z.rt.AllEntities() {
		t, err := z.rt.Transform(e)
		if err == nil && (t.Position.X < z.lo || t.Position.X >= z.hi) && z.next.owns(t.Position.X) {
			leaving = append(leaving, e)
		}
	}
	if len(leaving) == 0 {
		return nil
	}
	walkers, err := z.host.ExportAll(leaving)
	if err != nil {
		return err
	}
	z.handedOver += len(walkers)
	z.next.send(walkers)
	return nil
}

// owns reports whether x is on z's half of the road; its ends extend
// past the road's.
func (z *zone) owns(x float64) bool {
	return (x >= z.lo || z.lo == 0) && (x < z.hi || z.hi == 20)
}

// snapshotAsync saves the world without stopping the loop for the
// encoding; the file is written on another goroutine.
func (z *zone) snapshotAsync(dir string) error {
	p, err := z.host.SnapshotAsync()
	if err != nil {
		return err
	}
	z.snapshots++
	frame := z.rt.Frame()
	z.writes.Go(func() {
		data, err := p.Wait()
		if err == nil {
			err = z.write(dir, frame, data)
		}
		if err != nil {
			z.logger.Error("snapshot", "frame", frame, "err", err)
		}
	})
	return nil
}

// write writes a snapshot taken at frame, unless a newer one is on disk.
func (z *zone) write(dir string, frame uint64, data []byte) error {
	z.writeMu.Lock()
	defer z.writeMu.Unlock()
	if frame < z.written {
		return nil
	}
	tmp, err := os.CreateTemp(dir, z.name+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), snapshotPath(dir, z.name))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("snapshot of %s: %w", z.name, err)
	}
	z.written = frame
	return nil
}

// save writes the zone's last snapshot, once the ones being written are.
func (z *zone) save(dir string) error {
	z.writes.Wait()
	snap, err := z.host.Snapshot()
	if err != nil {
		return err
	}
	data, err := snap.Marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Clean(dir), 0o755); err != nil {
		return err
	}
	return z.write(dir, z.rt.Frame(), data)
}

func (z *zone) close() error {
	z.writes.Wait()
	return z.host.Close()
}

// stamina is a Go-native behaviour: it counts the frames a walker has
// walked, in whichever zone. It implements runtime.Saver, so a walker
// keeps its count through handoffs and snapshots.
type stamina struct{}

// energy is a stamina instance's state.
type energy struct{ Frames float64 }

func (stamina) Name() string  { return "stamina" }
func (stamina) Priority() int { return 10 }

func (stamina) Update(inst *runtime.Instance, _ float64) error {
	inst.Data.(*energy).Frames++
	return nil
}

func (stamina) SaveData(data any) (any, error) { return data.(*energy), nil }

func (stamina) LoadData(saved any) (any, error) {
	t, ok := saved.(*runtime.Table)
	if !ok {
		return nil, errors.New("stamina: want a table")
	}
	frames, ok := t.Get("Frames").(float64)
	if !ok {
		return nil, errors.New("stamina: want Frames")
	}
	return &energy{Frames: frames}, nil
}
