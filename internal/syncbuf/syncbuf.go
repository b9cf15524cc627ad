// Package syncbuf is a bytes.Buffer that goroutines may share: tests
// read what a world, a server or a process writes while it writes.
package syncbuf

import (
	"bytes"
	"sync"
)

// A Buffer is a bytes.Buffer safe for concurrent use. The zero Buffer is
// empty and ready.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
