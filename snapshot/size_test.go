package snapshot

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endless is a reader of a document that never ends: "[[[[...".
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '['
	}
	e.read += int64(len(p))
	return len(p), nil
}

// TestLimit: a document may take a ParseCost-th of the ceiling, and at
// most MaxSize, also with no ceiling.
func TestLimit(t *testing.T) {
	tests := []struct {
		ceiling, want int64
	}{
		{0, MaxSize},
		{-1, MaxSize},
		{1 << 30, 1 << 30 / ParseCost},
		{1 << 40, MaxSize},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Limit(tt.ceiling), "ceiling %d", tt.ceiling)
	}
}

// TestCheckSize: a document over the limit its ceiling sets is refused
// with its size, the limit and the ceiling; within it, it passes.
func TestCheckSize(t *testing.T) {
	tests := []struct {
		name       string
		n, ceiling int64
		want       string
	}{
		{"within the ceiling's part", 32 << 20, 1 << 30, ""},
		{"over the ceiling's part", 32<<20 + 1, 1 << 30,
			"snapshot too large: 33554433 bytes, more than the 33554432 bytes it may have under the 1024 MiB memory ceiling (parsing takes up to 32 bytes of memory a byte)"},
		{"no ceiling, within MaxSize", MaxSize, -1, ""},
		{"no ceiling, over MaxSize", MaxSize + 1, -1, "snapshot too large: 1073741825 bytes, more than the 1073741824 bytes it may have"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSize(tt.n, tt.ceiling)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrTooLarge)
			assert.EqualError(t, err, tt.want)
		})
	}
}

// TestReadBounded: Read reads at most one byte past the limit its
// ceiling sets and refuses a longer document before parsing any of it
// (an endless one included); a document within the limit is parsed.
func TestReadBounded(t *testing.T) {
	const ceiling = 1 << 20 // a limit of 32 KiB
	limit := Limit(ceiling)
	src := &endless{}
	_, err := Read(src, ceiling)
	require.ErrorIs(t, err, ErrTooLarge)
	assert.EqualError(t, err, "snapshot too large: more than 32768 bytes, more than the 32768 bytes it may have under the 1 MiB memory ceiling (parsing takes up to 32 bytes of memory a byte)")
	assert.LessOrEqual(t, src.read, limit+int64(bytes.MinRead)+1, "read no more than the limit and the reader's last buffer")

	data, err := sample().Marshal()
	require.NoError(t, err)
	require.Less(t, int64(len(data)), limit)
	got, err := Read(bytes.NewReader(data), ceiling)
	require.NoError(t, err)
	assert.Equal(t, sample().Entities[0].ID, got.Entities[0].ID)

	_, err = Read(io.MultiReader(bytes.NewReader(data), bytes.NewReader([]byte("x"))), ceiling)
	assert.NotErrorIs(t, err, ErrTooLarge, "within the limit, the parse decides")
	assert.Error(t, err)
}
