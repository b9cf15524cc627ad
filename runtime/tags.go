package runtime

import (
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"
)

// ErrBadTag is returned for an empty tag or one that is not valid UTF-8
// (a snapshot writes tags as text).
var ErrBadTag = errors.New("a tag must be a non-empty string")

// tagIndex keeps every entity's tags and, per tag, the set of
// entities that carry it, so that a tag query costs in proportion to the
// tagged entities, not to the world.
type tagIndex struct {
	byTag map[string]map[uint32]Handle
	byEnt map[uint32][]string // sorted
}

// Tag gives h the tag (a no-op when it has it). O(tags of h).
func (rt *Runtime) Tag(h Handle, tag string) error {
	if _, err := rt.slots.get(h); err != nil {
		return err
	}
	switch {
	case tag == "":
		return ErrBadTag
	case !utf8.ValidString(tag):
		return fmt.Errorf("%w of UTF-8 text", ErrBadTag)
	}
	ti := &rt.tags
	tags := ti.byEnt[h.Index]
	i, found := slices.BinarySearch(tags, tag)
	if found {
		return nil
	}
	if ti.byTag == nil {
		ti.byTag = make(map[string]map[uint32]Handle)
		ti.byEnt = make(map[uint32][]string)
	}
	ti.byEnt[h.Index] = slices.Insert(tags, i, tag)
	set := ti.byTag[tag]
	if set == nil {
		set = make(map[uint32]Handle)
		ti.byTag[tag] = set
	}
	set[h.Index] = h
	return nil
}

// Untag takes the tag from h (a no-op when it does not have it).
func (rt *Runtime) Untag(h Handle, tag string) error {
	if _, err := rt.slots.get(h); err != nil {
		return err
	}
	rt.tags.remove(h.Index, tag)
	return nil
}

func (ti *tagIndex) remove(idx uint32, tag string) {
	tags := ti.byEnt[idx]
	i, found := slices.BinarySearch(tags, tag)
	if !found {
		return
	}
	if tags = slices.Delete(tags, i, i+1); len(tags) == 0 {
		delete(ti.byEnt, idx)
	} else {
		ti.byEnt[idx] = tags
	}
	set := ti.byTag[tag]
	delete(set, idx)
	if len(set) == 0 {
		delete(ti.byTag, tag)
	}
}

// HasTag reports whether h carries the tag; false for a stale handle.
func (rt *Runtime) HasTag(h Handle, tag string) bool {
	if _, err := rt.slots.get(h); err != nil {
		return false
	}
	_, found := slices.BinarySearch(rt.tags.byEnt[h.Index], tag)
	return found
}

// Tags returns h's tags, sorted (a copy).
func (rt *Runtime) Tags(h Handle) ([]string, error) {
	if _, err := rt.slots.get(h); err != nil {
		return nil, err
	}
	return slices.Clone(rt.tags.byEnt[h.Index]), nil
}

// untagAll drops every tag of the entity in slot idx (at reap).
func (ti *tagIndex) untagAll(idx uint32) {
	for _, tag := range slices.Clone(ti.byEnt[idx]) {
		ti.remove(idx, tag)
	}
}
