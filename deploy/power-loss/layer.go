package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"golang.org/x/sys/unix"
)

// trashName is the one name the layer reserves, in the backing directory's root: removed
// entries wait there until their removal is durable. The mount never shows it.
const trashName = ".plumb-power-loss"

// namesRule says which fsync makes name changes durable.
type namesRule int

const (
	// namesStrict: only an fsync of a directory does (POSIX's rule, and the one a program must
	// follow to be safe on every filesystem): it makes durable every name change up to the
	// last one in that directory.
	namesStrict namesRule = iota
	// namesJournaled: any fsync, of a file or a directory, makes every earlier name change
	// durable, as ext4 and XFS do in practice: their fsync commits the whole journal.
	namesJournaled
)

func parseNamesRule(s string) (namesRule, error) {
	switch s {
	case "strict":
		return namesStrict, nil
	case "journaled":
		return namesJournaled, nil
	}
	return 0, fmt.Errorf("--names is strict or journaled, not %q", s)
}

func (r namesRule) String() string {
	if r == namesJournaled {
		return "journaled"
	}
	return "strict"
}

// layer is the state behind one mount.
type layer struct {
	backing string // absolute path of the backing directory
	trash   string
	names   namesRule

	// barrier makes a drop (and a sync of everything) happen at one instant: every operation
	// that reads or changes the layer's state holds it shared; drop holds it alone.
	barrier sync.RWMutex

	mu      sync.Mutex // guards what follows
	files   map[uint64]*fileState
	journal []*metaOp
	seq     uint64 // names trash entries
	drops   int

	lockFd int // the trash directory, locked
}

func newLayer(backing string, names namesRule) (*layer, error) {
	abs, err := filepath.Abs(backing)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", abs)
	}
	l := &layer{backing: abs, trash: filepath.Join(abs, trashName), names: names, files: map[uint64]*fileState{}}
	if err := os.Mkdir(l.trash, 0o700); err != nil && !os.IsExist(err) {
		return nil, err
	}
	// The trash stays locked while the layer lives: a second layer over the same directory
	// would undo and delete the first one's entries.
	fd, err := unix.Open(l.trash, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("another layer serves %s", abs)
	}
	l.lockFd = fd
	// Entries left in trash by a layer that died without unmounting were removed by the
	// program and never restored: their removal stands.
	left, err := os.ReadDir(l.trash)
	if err != nil {
		l.close()
		return nil, err
	}
	for _, e := range left {
		if err := os.RemoveAll(filepath.Join(l.trash, e.Name())); err != nil {
			l.close()
			return nil, err
		}
	}
	return l, nil
}

// close releases the backing directory, leaving no trace of the layer in it. The caller has
// made everything durable or dropped it: the trash is empty.
func (l *layer) close() error {
	err := os.RemoveAll(l.trash)
	unix.Close(l.lockFd)
	return err
}

// record appends a name change to the journal. The caller holds l.mu and has just applied it
// to the backing directory, so the journal's order is the backing directory's.
func (l *layer) record(op *metaOp) {
	l.journal = append(l.journal, op)
}

// trashPath names a fresh trash entry. The caller holds l.mu.
func (l *layer) trashPath() string {
	l.seq++
	return filepath.Join(l.trash, strconv.FormatUint(l.seq, 10))
}

// commitThrough makes the first n journal records durable. The caller holds l.mu.
func (l *layer) commitThrough(n int) error {
	if n == 0 {
		return nil
	}
	var firstErr error
	removed := false
	for _, op := range l.journal[:n] {
		if err := op.commit(); err != nil && firstErr == nil {
			firstErr = err
		}
		removed = removed || op.kind == opRemoved
	}
	l.journal = append(l.journal[:0:0], l.journal[n:]...)
	if removed {
		l.forgetUnreachable()
	}
	return firstErr
}

// forgetUnreachable forgets the unsynced data of files no handle has open and no name reaches
// any more (their last name's removal just became durable): nothing can read it again. The
// caller holds l.mu.
func (l *layer) forgetUnreachable() {
	for _, f := range l.files {
		if f.opens > 0 {
			continue
		}
		f.mu.Lock()
		var st unix.Stat_t
		if unix.Fstat(f.fd, &st) == nil && st.Nlink == 0 {
			l.closeState(f)
		}
		f.mu.Unlock()
	}
}

// commitForDir is what an fsync of the directory dirIno makes durable: every record up to the
// last one that touches the directory (under either rule; the journaled rule commits all).
func (l *layer) commitForDir(dirIno uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for i, op := range l.journal {
		if l.names == namesJournaled || op.touches(dirIno) {
			n = i + 1
		}
	}
	return l.commitThrough(n)
}

// commitForFile is what an fsync of a file makes durable of the names: nothing under the strict
// rule, every earlier record under the journaled one.
func (l *layer) commitForFile() error {
	if l.names != namesJournaled {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.commitThrough(len(l.journal))
}

// acquire returns the file's state, counting one more open; with no state yet, it makes one
// around the descriptor open returns. One descriptor serves every handle of a file.
func (l *layer) acquire(ino uint64, inode *fs.Inode, open func() (int, error)) (*fileState, syscall.Errno) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.files[ino]
	if f == nil {
		fd, err := open()
		if err != nil {
			return nil, errnoOf(err)
		}
		f = &fileState{ino: ino, inode: inode, fd: fd}
		l.files[ino] = f
	}
	f.opens++
	return f, 0
}

// existing returns the file's state if the layer has one.
func (l *layer) existing(ino uint64) *fileState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.files[ino]
}

// release is a handle's close. A state with no handle left keeps its descriptor only while it
// holds unsynced data, and not even then once the file has no name left anywhere (its last
// name's removal is durable): such data can never be read again.
func (l *layer) release(f *fileState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f.opens--
	if f.opens > 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var st unix.Stat_t
	if f.dirty && unix.Fstat(f.fd, &st) == nil && st.Nlink > 0 {
		return
	}
	l.closeState(f)
}

// closeState forgets a state. The caller holds l.mu and f.mu.
func (l *layer) closeState(f *fileState) {
	f.forget()
	unix.Close(f.fd)
	f.fd = -1
	delete(l.files, f.ino)
}

// dropResult says what a drop discarded.
type dropResult struct {
	bytes, files, names, openFiles int
	errors                         []string
}

// drop is the power loss: every unsynced byte and every name change not yet durable is gone,
// and the mount shows the durable state. The caller should have stopped (killed and waited for)
// every process using the mount first, as a power loss stops them: see README.md.
func (l *layer) drop() dropResult {
	var res dropResult
	var contents []*fs.Inode
	var undone []*metaOp

	l.barrier.Lock()
	l.mu.Lock()
	for _, f := range l.files {
		f.mu.Lock()
		if f.dirty {
			res.bytes += int(f.held)
			res.files++
			contents = append(contents, f.inode)
		}
		f.forget()
		if f.opens > 0 {
			res.openFiles++
		} else {
			l.closeState(f)
		}
		f.mu.Unlock()
	}
	for i := len(l.journal) - 1; i >= 0; i-- {
		op := l.journal[i]
		if err := op.undo(); err != nil {
			res.errors = append(res.errors, err.Error())
		}
		undone = append(undone, op)
	}
	res.names = len(l.journal)
	l.journal = nil
	l.drops++
	l.mu.Unlock()
	l.barrier.Unlock()

	// The kernel may still cache pages and sizes of what was just discarded (a file open across
	// the drop). Invalidation goes outside the locks: the kernel may call back into the layer.
	for _, inode := range contents {
		inode.NotifyContent(0, 0)
	}
	for _, op := range undone {
		op.notify()
	}
	return res
}

// syncAll makes everything durable now, as a clean unmount does.
func (l *layer) syncAll() error {
	l.barrier.Lock()
	defer l.barrier.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	var firstErr error
	for _, f := range l.files {
		f.mu.Lock()
		if f.dirty {
			if errno := f.flush(false); errno != 0 && firstErr == nil {
				firstErr = fmt.Errorf("sync %s: %v", l.describe(f), errno)
			}
			if f.opens == 0 {
				l.closeState(f)
			}
		}
		f.mu.Unlock()
	}
	if err := l.commitThrough(len(l.journal)); err != nil && firstErr == nil {
		firstErr = err
	}
	return firstErr
}

// describe names a file for an error message.
func (l *layer) describe(f *fileState) string {
	if f.inode != nil {
		return filepath.Join(l.backing, f.inode.Path(nil))
	}
	return "inode " + strconv.FormatUint(f.ino, 10)
}

// status is the layer's state as key=value lines.
func (l *layer) status() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var bytes int64
	files, open := 0, 0
	for _, f := range l.files {
		f.mu.Lock()
		if f.dirty {
			bytes += f.held
			files++
		}
		f.mu.Unlock()
		if f.opens > 0 {
			open++
		}
	}
	lines := []string{
		"unsynced_bytes=" + strconv.FormatInt(bytes, 10),
		"unsynced_files=" + strconv.Itoa(files),
		"pending_names=" + strconv.Itoa(len(l.journal)),
		"open_files=" + strconv.Itoa(open),
		"drops=" + strconv.Itoa(l.drops),
		"names=" + l.names.String(),
		"backing=" + l.backing,
	}
	return strings.Join(lines, "\n")
}

// isReserved says whether name in the directory with inode dir is the layer's own.
func (l *layer) isReserved(dir *fs.Inode, name string) bool {
	return name == trashName && dir.IsRoot()
}

var errReserved = syscall.EPERM
