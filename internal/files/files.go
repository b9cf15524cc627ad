// Package files reads the files that scenes and scripts name without
// letting a path escape its folder or hang or exhaust the process: a
// symbolic link that resolves outside the folder is refused, and so is
// anything but a regular file (a device such as /dev/zero, a named pipe, a
// directory) and a file larger than the caller's limit.
package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

var (
	// ErrOutside is returned for a path that resolves outside its folder.
	ErrOutside = errors.New("resolves outside the script folder")
	// ErrNotRegular is returned for a path that is not a regular file.
	ErrNotRegular = errors.New("is not a regular file")
	// ErrTooLarge is returned for a file larger than the limit.
	ErrTooLarge = errors.New("is too large")
)

// Resolve returns path with every symbolic link resolved, after checking
// that it lies inside root (itself resolved). A missing file is an error
// matching fs.ErrNotExist; a file outside root is ErrOutside.
func Resolve(root, path string) (string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if realRoot, err = filepath.Abs(realRoot); err != nil {
		return "", err
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", err
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", ErrOutside
	}
	return real, nil
}

// ReadRegular reads the regular file at path, which must hold at most max
// bytes. Anything else is refused without reading it: a device, a named
// pipe (opened without blocking, so that a pipe nobody writes to does not
// hang the caller) or a directory is ErrNotRegular, a larger file
// ErrTooLarge. Other failures are those of os.Open and read.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, fi.Size(), max)
	}
	return readAtMost(f, fi.Size(), max)
}

// ReadFS reads the regular file name of fsys, which must hold at most max
// bytes. It is ReadRegular for a file system: anything but a regular file
// is ErrNotRegular, found by fs.Stat before the file is opened (so that a
// named pipe of an os.DirFS is never opened), and a larger file is
// ErrTooLarge. A missing file is an error matching fs.ErrNotExist.
func ReadFS(fsys fs.FS, name string, max int64) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, fi.Size(), max)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAtMost(f, fi.Size(), max)
}

// readAtMost reads r, a file that Stat gave size bytes, to its end, which
// must come within limit bytes. It reads into a buffer of that size, and a
// byte more to see the end: io.ReadAll would read a large file into
// growing chunks and copy them into one more buffer at the end.
func readAtMost(r io.Reader, size, limit int64) ([]byte, error) {
	data := make([]byte, 0, max(size, 0)+1)
	r = io.LimitReader(r, limit+1)
	for {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			// The file grew since Stat.
			data = append(data, 0)[:len(data)]
		}
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w (over %d bytes)", ErrTooLarge, limit)
	}
	return data, nil
}

// ReadIn reads the regular file at path, which must resolve inside root
// and hold at most max bytes: Resolve, then ReadRegular.
func ReadIn(root, path string, max int64) ([]byte, error) {
	real, err := Resolve(root, path)
	if err != nil {
		return nil, err
	}
	return ReadRegular(real, max)
}
