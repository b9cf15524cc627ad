package zones_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/luahost/luahost/zones"
)

func TestCrossZone(t *testing.T) {
	two := zones.Layout{Edges: []float64{0}}
	tests := []struct {
		name   string
		ents   []ent
		frames int
		want   string
	}{
		{
			// A broadcast of frame 1 reaches the listeners of both zones,
			// the caster's own included, at the start of frame 2, before
			// their update.
			name: "broadcast",
			ents: []ent{
				{x: -5, scripts: []string{"caster"}},
				{x: -3, scripts: []string{"listener"}},
				{x: 5, scripts: []string{"listener"}},
			},
			frames: 3,
			want: "ping sent 1 got 2 zone 0 updated 1\n" +
				"ping sent 1 got 2 zone 1 updated 1\n",
		},
		{
			// Blackboard writes are visible to the writer at once and to
			// the other zone from the next frame; of two writes of one
			// key in one frame, the higher zone's wins in both.
			name:   "blackboard",
			ents:   []ent{{x: -5, scripts: []string{"board"}}, {x: 5, scripts: []string{"board"}}},
			frames: 3,
			want: "frame 1 zone 0 other nil shared nil\n" +
				"frame 1 zone 1 other nil shared nil\n" +
				"frame 2 zone 0 other 1 shared 1\n" +
				"frame 2 zone 1 other 1 shared 1\n" +
				"frame 3 zone 0 other 2 shared 1\n" +
				"frame 3 zone 1 other 2 shared 1\n",
		},
		{
			// Entity values in data that crosses to another zone become
			// the string ids of their handles.
			name:   "handles",
			ents:   []ent{{x: -5, scripts: []string{"pointer"}}, {x: 5, scripts: []string{"pointer"}}},
			frames: 2,
			want: "zone\t0\town\tuserdata\tother\tstring\tentity(1:1)\n" +
				"zone\t1\town\tuserdata\tother\tstring\tentity(1:1)\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs := output(t, two, tc.ents, tc.frames)
			assert.Empty(t, errs)
			assert.Equal(t, tc.want, out)
		})
	}
}
