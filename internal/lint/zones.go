package lint

// zoneCallbacks are the callbacks that run only when an entity moves
// from one zone to another.
var zoneCallbacks = []string{"onExport", "onImport"}

// lintZoned reports, for a script of a zoned world (its scene has a
// zones field), what the zoned rules cannot keep the same on any number
// of zones: onExport and onImport run only when an entity crosses an
// edge, so what they do shows where the edges are. Entity values kept
// in self, reads and effects across edges are transparent and not
// reported.
func (f *luaFile) lintZoned() []Problem {
	fields, ok := f.scriptFields()
	if !ok {
		return nil
	}
	var out []Problem
	for _, fl := range fields {
		for _, cb := range zoneCallbacks {
			if fl.fn && fl.name == cb {
				out = append(out, f.at(fl.line, cb, Warning, "%s runs only when an entity moves to another zone: in a zoned world what it does (prints, effects, random draws) depends on the number of zones", cb))
			}
		}
	}
	return out
}
