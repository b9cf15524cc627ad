package zones

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/luahost/luahost/snapshot"
)

// Hash returns the SHA-256 of the world's state between frames, in a
// form that does not depend on the number of zones: zone 0's frame,
// time, seed and blackboard (every zone holds the same), every loaded
// script's generator by name, and every entity of every zone by world
// identity (its id is the identity, in hex; its instances are numbered
// from 1 in attach order). Handles, slots and the runtimes' own
// counters are left out: they differ from zone to zone. So a world run
// on 1, 2 or 4 zones that played the same game has the same hash.
func (w *World) Hash() ([sha256.Size]byte, error) {
	parts := make([]*snapshot.World, len(w.zones))
	for i, z := range w.zones {
		s, err := z.host.Snapshot()
		if err != nil {
			return [sha256.Size]byte{}, fmt.Errorf("zone %d: %w", i, err)
		}
		parts[i] = s
	}
	return hashOf(parts)
}

// hashOf returns the hash of a world (see World.Hash) whose zones'
// snapshots are parts, by zone.
func hashOf(parts []*snapshot.World) ([sha256.Size]byte, error) {
	var doc snapshot.World
	seen := make(map[string]bool)
	for i, s := range parts {
		if i == 0 {
			doc = snapshot.World{Format: s.Format, Frame: s.Frame, Time: s.Time, DT: s.DT, Seed: s.Seed, Blackboard: s.Blackboard}
		}
		for _, sc := range s.Scripts {
			if !seen[sc.Name] {
				seen[sc.Name] = true
				doc.Scripts = append(doc.Scripts, sc)
			}
		}
		for _, e := range s.Entities {
			if e.World == nil {
				return [sha256.Size]byte{}, fmt.Errorf("zone %d: entity %s has no world identity", i, e.ID)
			}
			e.ID = fmt.Sprintf("%x", e.World.ID)
			for j := range e.Instances {
				e.Instances[j].Seq = uint64(j + 1)
			}
			doc.Entities = append(doc.Entities, e)
		}
	}
	slices.SortFunc(doc.Scripts, func(a, b snapshot.Script) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortFunc(doc.Entities, func(a, b snapshot.Entity) int { return cmp.Compare(a.World.ID, b.World.ID) })
	data, err := doc.Marshal()
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	return sha256.Sum256(data), nil
}
