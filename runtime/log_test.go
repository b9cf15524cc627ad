package runtime

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSlogErrors: with Options.Logger and no OnError, a script error is
// logged at level Error with its context as attributes, and any other
// reported error with its text.
func TestSlogErrors(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	rt := New(Options{Logger: logger})
	defer rt.Close()
	assert.Same(t, logger, rt.Logger())
	errNoAmmo := errors.New("no ammo")
	s := &testScript{name: "gun", log: &recorder{}, update: func(*Instance, float64) error { return errNoAmmo }}
	e := rt.Spawn()
	_, err := rt.Attach(e, s, nil)
	require.NoError(t, err)
	require.NoError(t, rt.Activate(e))
	require.NoError(t, rt.Step(0.1))
	rt.Report(errors.New("watcher lost"))
	assert.Equal(t, `level=ERROR msg="no ammo" script=gun entity=entity(1:1) frame=1 callback=onUpdate cause="no ammo"`+"\n"+
		`level=ERROR msg="watcher lost"`+"\n", buf.String())
}
