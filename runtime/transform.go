package runtime

// Vec3 is a 3-vector: a position, Euler angles in degrees, or a scale.
type Vec3 struct{ X, Y, Z float64 }

// Transform is an entity's position, rotation (Euler degrees) and scale.
type Transform struct {
	Position Vec3
	Rotation Vec3
	Scale    Vec3
}

// identity is the transform of a new entity: at the origin, unrotated,
// scale 1.
var identity = Transform{Scale: Vec3{1, 1, 1}}

// Identity returns the transform of a new entity: at the origin,
// unrotated, scale 1.
func Identity() Transform { return identity }

// Part selects one of a transform's three vectors.
type Part uint8

// The parts of a Transform.
const (
	Position Part = iota
	Rotation
	Scale
)

func (t *Transform) part(p Part) *Vec3 {
	switch p {
	case Rotation:
		return &t.Rotation
	case Scale:
		return &t.Scale
	default:
		return &t.Position
	}
}

// Transform returns h's committed transform: within a frame,
// every reader sees the values of the previous flush, whatever has been
// written since.
func (rt *Runtime) Transform(h Handle) (Transform, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return Transform{}, err
	}
	return s.ent.transform, nil
}

// Get returns one committed part of h's transform.
func (rt *Runtime) Get(h Handle, p Part) (Vec3, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return Vec3{}, err
	}
	return *s.ent.transform.part(p), nil
}

// Set writes one part of h's transform. During a frame the write goes to
// the write cache and is committed at the frame's flush, the last write of
// the frame winning; outside a frame it is committed at once.
func (rt *Runtime) Set(h Handle, p Part, v Vec3) error {
	s, err := rt.slots.get(h)
	if err != nil {
		return err
	}
	e := s.ent
	if !rt.stepping {
		*e.transform.part(p) = v
		if p == Position {
			rt.spatial.place(h.Index, v)
		}
		return nil
	}
	if e.writeAt == 0 {
		rt.writes = append(rt.writes, pendingWrite{h: h})
		e.writeAt = len(rt.writes)
	}
	w := &rt.writes[e.writeAt-1]
	*w.t.part(p) = v
	w.mask |= 1 << p
	return nil
}

// pendingWrite is the write cache of one entity during a frame: the
// parts of its transform written (mask) and their last values. The
// cache is the runtime's, not the entity's, so that an entity does not
// carry a transform that only a frame's writers use.
type pendingWrite struct {
	h    Handle
	mask uint8
	t    Transform
}

// commitWrites applies the frame's write cache (flush step 3).
func (rt *Runtime) commitWrites() {
	for i := range rt.writes {
		w := &rt.writes[i]
		// An entity reaped since its writes has lost them; its payload
		// was cleared, and taken again it caches its own.
		s, err := rt.slots.get(w.h)
		if err != nil {
			continue
		}
		e := s.ent
		for p := Position; p <= Scale; p++ {
			if w.mask&(1<<p) != 0 {
				*e.transform.part(p) = *w.t.part(p)
			}
		}
		if w.mask&(1<<Position) != 0 {
			rt.spatial.place(w.h.Index, e.transform.Position)
		}
		e.writeAt = 0
	}
	rt.writes = rt.writes[:0]
}
