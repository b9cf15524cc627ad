package snapshot

import (
	"errors"
	"fmt"
	"io"
)

// ParseCost is the most live memory, in bytes, that Parse needs at its
// peak for each byte of the document: the document, the decoder's copy
// of it and the parsed form. Measured: about 26 for a document of empty
// tables or of one-digit numbers (the densest in values), 3 for a world
// of spinners; ParseCost leaves room above the worst.
const ParseCost = 32

// MaxSize is the largest document Limit allows: 1 GiB, far above the
// 1 MB of a 10,000-entity world.
const MaxSize = 1 << 30

// ErrTooLarge marks a document refused for its size before any of it was
// parsed.
var ErrTooLarge = errors.New("snapshot too large")

// Limit returns the largest document that may be parsed under a memory
// ceiling of ceiling bytes of live heap: a ParseCost-th of it, so that
// parsing stays under the ceiling, and at most MaxSize. A ceiling of
// zero or less is none: MaxSize.
func Limit(ceiling int64) int64 {
	if ceiling <= 0 {
		return MaxSize
	}
	return min(ceiling/ParseCost, MaxSize)
}

// CheckSize returns nil when a document of n bytes is within Limit(ceiling),
// and otherwise an error wrapping ErrTooLarge that gives the size, the
// limit and, when the ceiling set it, the ceiling.
func CheckSize(n, ceiling int64) error {
	limit := Limit(ceiling)
	if n <= limit {
		return nil
	}
	return sizeError(fmt.Sprintf("%d bytes", n), ceiling)
}

// sizeError says that a document of size is over Limit(ceiling).
func sizeError(size string, ceiling int64) error {
	limit := Limit(ceiling)
	if limit < MaxSize {
		return fmt.Errorf("%w: %s, more than the %d bytes it may have under the %d MiB memory ceiling (parsing takes up to %d bytes of memory a byte)",
			ErrTooLarge, size, limit, ceiling>>20, ParseCost)
	}
	return fmt.Errorf("%w: %s, more than the %d bytes it may have", ErrTooLarge, size, limit)
}

// Read reads a document from r and parses it (Parse), under a memory
// ceiling of ceiling bytes (zero or less: none): it reads at most
// Limit(ceiling) bytes and one more, and refuses a longer document with
// ErrTooLarge before parsing any of it.
func Read(r io.Reader, ceiling int64) (*World, error) {
	limit := Limit(ceiling)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, sizeError(fmt.Sprintf("more than %d bytes", limit), ceiling)
	}
	return Parse(data)
}
