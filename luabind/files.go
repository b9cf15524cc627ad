package luabind

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/luahost/luahost/internal/files"
)

// MaxScriptSize is the largest script or module file that is read: a
// larger one is refused, like a file that is not a regular file or that
// resolves outside the script directory.
const MaxScriptSize = 16 << 20

// readSource reads the script or module file at path (under Dir), which
// must be a regular file of at most MaxScriptSize bytes that resolves,
// symbolic links followed, inside the script directory; with Options.FS,
// the file at the same path under the FS's root. Devices and pipes are
// never read. A missing file is an error matching fs.ErrNotExist. A UTF-8
// byte order mark that starts the file is left out, as scene files' is:
// editors write one, and gopher-lua would refuse the chunk at it
// ("unexpected symbol near 'ï'").
func (h *Host) readSource(path string) ([]byte, error) {
	var src []byte
	var err error
	if h.opts.FS == nil {
		src, err = files.ReadIn(h.opts.Dir, path, MaxScriptSize)
	} else {
		var rel string
		if rel, err = filepath.Rel(h.opts.Dir, path); err != nil {
			return nil, err
		}
		src, err = files.ReadFS(h.opts.FS, filepath.ToSlash(rel), MaxScriptSize)
	}
	return bytes.TrimPrefix(src, []byte(byteOrderMark)), err
}

// byteOrderMark is UTF-8's byte order mark.
const byteOrderMark = "\xef\xbb\xbf"

// refusal says why the file called subject could not be read: "the file
// resolves outside the script folder", "scripts/x.lua is not a regular
// file"; other errors are given as they are.
func refusal(subject string, err error) string {
	for _, known := range []error{files.ErrOutside, files.ErrNotRegular, files.ErrTooLarge} {
		if errors.Is(err, known) {
			return fmt.Sprintf("%s %v", subject, err)
		}
	}
	return err.Error()
}
