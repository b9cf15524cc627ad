package main

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProgress(t *testing.T) {
	t.Run("not a terminal: nothing", func(t *testing.T) {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		defer r.Close()
		defer w.Close()
		p := newProgress(w, 10)
		assert.Nil(t, p.w, "a pipe is not a terminal")
		var buf bytes.Buffer
		assert.Nil(t, newProgress(&buf, 10).w, "neither is a buffer")
	})

	t.Run("a terminal: frame N/M, at most five times a second, cleared at the end", func(t *testing.T) {
		var buf bytes.Buffer
		p := &progress{w: &buf, total: 100, last: time.Now()}
		p.update(1)
		assert.Empty(t, buf.String(), "not within 200ms of the start")
		p.last = time.Now().Add(-time.Second)
		p.update(42)
		assert.Equal(t, "\rframe 42/100", buf.String())
		p.update(43)
		assert.Equal(t, "\rframe 42/100", buf.String(), "not again within 200ms")
		p.done()
		assert.Equal(t, "\rframe 42/100\r\033[K", buf.String())
	})

	t.Run("nothing shown, nothing cleared", func(t *testing.T) {
		var buf bytes.Buffer
		p := &progress{w: &buf, total: 3, last: time.Now()}
		p.update(1)
		p.done()
		assert.Empty(t, buf.String())
	})
}
