package runtime

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type logScript struct {
	name string
	prio int
	log  *[]string
	upd  func(inst *Instance)
}

func (s *logScript) Name() string  { return s.name }
func (s *logScript) Priority() int { return s.prio }
func (s *logScript) Create(inst *Instance) error {
	*s.log = append(*s.log, "create "+s.name)
	return nil
}
func (s *logScript) Update(inst *Instance, dt float64) error {
	*s.log = append(*s.log, fmt.Sprintf("update %s %d", s.name, inst.Runtime().Frame()))
	if s.upd != nil {
		s.upd(inst)
	}
	return nil
}
func (s *logScript) Destroy(inst *Instance) error {
	*s.log = append(*s.log, "destroy "+s.name)
	return nil
}

func TestSmoke(t *testing.T) {
	var log []string
	rt := New(Options{})
	h := rt.Spawn()
	a := &logScript{name: "a", prio: 10, log: &log}
	b := &logScript{name: "b", prio: -5, log: &log}
	_, err := rt.Attach(h, a, nil)
	require.NoError(t, err)
	_, err = rt.Attach(h, b, nil)
	require.NoError(t, err)
	require.NoError(t, rt.Activate(h))
	require.NoError(t, rt.Step(0.5))
	a.upd = func(inst *Instance) { _, _ = rt.Kill(inst.Entity()) }
	require.NoError(t, rt.Step(0.5))
	assert.False(t, rt.Alive(h))
	require.NoError(t, rt.Close())
	assert.Equal(t, "create a,create b,update b 1,update a 1,update b 2,update a 2,destroy b,destroy a", strings.Join(log, ","))
	assert.Equal(t, 1, rt.Payloads().Made())
}
