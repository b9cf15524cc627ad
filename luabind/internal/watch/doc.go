// Package watch is the file-system half of hot reload: it watches a script
// directory and hands ready-to-compile source to the goroutine that drives
// the runtime. It never calls into Lua; it only produces changes.
//
// # Outline
//
//   - [New] snapshots the tree (a content hash per script) and starts
//     watching the directory and every subdirectory, including the ones
//     created later. Single files are never watched, so rename-based editor
//     saves, delete-and-recreate and truncate-then-write are all seen.
//   - A path is read only once no event for it has arrived for
//     [Options.Quiet]; a file that changed while it was read is read again
//     after another quiet period. One save is one [Change].
//   - [Watcher.Ready] signals that [Watcher.Drain] has something new;
//     [Watcher.Drain] returns every settled change, sorted by path, each path
//     at most once. A change whose content equals what was last reported (or
//     the content at [New]) is not reported.
//   - Editor temporaries and hidden files are ignored: names ending in "~",
//     ".swp" or ".swx", "4913", names ending in "___jb_tmp___" or
//     "___jb_old___", and every name starting with "." (a dot-directory and
//     everything in it included). Only files with [Options.Ext] count.
//   - An event-queue overflow rescans the whole tree and reports what
//     changed, appeared or disappeared since the last report. Other watcher
//     errors are passed on through [Watcher.Errors].
//   - If the directory itself disappears (moved away, deleted), one error
//     on [Watcher.Errors] says so and nothing is reported while it is gone;
//     it is looked for every 200ms, and when it is back, watching resumes
//     with a rescan that reports what changed meanwhile.
//   - Only regular files are read: a symbolic link that resolves outside
//     the directory, or a file over [Options.MaxSize], is reported on
//     [Watcher.Errors] and not read; a device or a pipe counts as absent.
//   - [Watcher.Close] stops the watching goroutine and the underlying
//     notifier.
//
// # Typical use
//
// The goroutine that drives the runtime selects on [Watcher.Ready] (or polls
// [Watcher.Drain] between frames) and compiles each [Change.Source]; the swap
// itself happens between frames, outside this package.
package watch
