package scene

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/luahost/luahost/zones"
)

// Zones is a scene's zones field: the axis the world is
// cut along and the edges between its strips.
type Zones struct {
	// Axis is "x", "y" or "z".
	Axis string `json:"axis"`
	// Edges are the borders between strips, increasing strictly: n
	// edges make n+1 zones.
	Edges []float64 `json:"edges"`
}

// checkZones checks a scene's zones field beyond its shape: an axis and
// at least one edge, edges that increase strictly. The error starts with
// the line and column of the offending value in data.
func checkZones(data []byte, z *Zones) error {
	if z == nil {
		return nil
	}
	at := func(key string, index int, format string, a ...any) error {
		line, col := LineCol(data, zonesOffset(data, key, index))
		return fmt.Errorf("%d:%d: %s", line, col, fmt.Sprintf(format, a...))
	}
	if z.Axis == "" {
		return at("", -1, `zones: want "axis" ("x", "y" or "z") and "edges" (at least one number)`)
	}
	axis, err := zones.ParseAxis(z.Axis)
	if err != nil {
		return at("axis", -1, "zones.axis: %v", err)
	}
	if len(z.Edges) == 0 {
		key := "edges"
		if z.Edges == nil {
			key = ""
		}
		return at(key, -1, "zones.edges: want at least one edge (n edges make n+1 zones)")
	}
	for i := 1; i < len(z.Edges); i++ {
		if z.Edges[i] <= z.Edges[i-1] {
			return at("edges", i, "zones.%v", zones.Layout{Axis: axis, Edges: z.Edges}.Check())
		}
	}
	return nil
}

// zonesOffset returns the offset in data (a valid scene) where the value
// of zones.key starts, or its element index when index >= 0; with key
// "", where the zones object starts.
func zonesOffset(data []byte, key string, index int) int64 {
	w := &shapeWalker{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	w.dec.UseNumber()
	// member reads the members of the object just opened up to the one
	// called name and returns where its value starts.
	member := func(name string) (int64, bool) {
		for w.dec.More() {
			k, _, err := w.next()
			if err != nil {
				return 0, false
			}
			tok, at, err := w.next()
			if err != nil {
				return 0, false
			}
			if k == name {
				return at, true
			}
			if w.anyRest(tok, at, "") != nil {
				return 0, false
			}
		}
		return 0, false
	}
	if _, _, err := w.next(); err != nil {
		return 0
	}
	zat, ok := member("zones")
	if !ok || key == "" {
		return zat
	}
	at, ok := member(key)
	if !ok || index < 0 {
		return at
	}
	for i := 0; w.dec.More(); i++ {
		tok, eat, err := w.next()
		if err != nil || i == index {
			return eat
		}
		_ = w.anyRest(tok, eat, "")
	}
	return at
}
