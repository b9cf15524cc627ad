package runtime

// State is an entity's place in its lifecycle:
//
//	None --Spawn--> Pending --Activate--> Active --Kill--> Dying --Reap--> Dead --> None
//	                   |                     ^               |
//	                   +--Cancel--> Dead     +----Revive-----+
type State uint8

// The five lifecycle states.
const (
	// StateNone is a free slot.
	StateNone State = iota
	// StatePending is allocated but not yet in play: scripts may be
	// attached and created, but get no update.
	StatePending
	// StateActive is in play.
	StateActive
	// StateDying is judged dead and waiting for settlement.
	StateDying
	// StateDead is reaped: the slot is being reclaimed.
	StateDead
)

var stateNames = [...]string{"none", "pending", "active", "dying", "dead"}

// String returns the state's lower-case name, as Lua's e:state() does.
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "invalid"
}

// transitions is the lifecycle table: every legal (from, to) pair and the
// name of the move. Everything else is illegal.
var transitions = [...]struct {
	from, to State
	name     string
}{
	{StateNone, StatePending, "spawn"},
	{StatePending, StateActive, "activate"},
	{StatePending, StateDead, "cancel"},
	{StateActive, StateDying, "kill"},
	{StateDying, StateActive, "revive"},
	{StateDying, StateDead, "reap"},
	{StateDead, StateNone, "free"},
}

// CanTransition reports whether the lifecycle table allows from -> to.
func CanTransition(from, to State) bool {
	for _, t := range transitions {
		if t.from == from && t.to == to {
			return true
		}
	}
	return false
}

// transition moves s to the state to, or returns a *TransitionError naming
// both states and leaves s unchanged.
func (s *slot) transition(to State) error {
	if !CanTransition(s.state, to) {
		return &TransitionError{From: s.state, To: to}
	}
	s.setState(to)
	return nil
}

// setState sets the slot's state and tells its instances whether their
// entity is Active, so that the update loop need not read the slot.
func (s *slot) setState(to State) {
	s.state = to
	if s.ent == nil {
		return
	}
	for _, inst := range s.ent.insts {
		inst.active = to == StateActive
	}
}
