package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
	"golang.org/x/sys/unix"
)

// node is one file or directory of the mount. go-fuse's loopback node does the passing through
// (lookups, attributes, xattrs, symlinks); node takes over everything that writes: file data
// goes through the layer's unsynced state, and name changes through its journal.
type node struct {
	*fs.LoopbackNode
	l *layer
}

// WrapChild makes every node the loopback creates one of ours.
func (n *node) WrapChild(ctx context.Context, ops fs.InodeEmbedder) fs.InodeEmbedder {
	return &node{LoopbackNode: ops.(*fs.LoopbackNode), l: n.l}
}

func (n *node) ino() uint64 { return n.EmbeddedInode().StableAttr().Ino }

// backingPath is where this node lives in the backing directory.
func (n *node) backingPath() string {
	return filepath.Join(n.l.backing, n.EmbeddedInode().Path(n.Root()))
}

// fixAttr puts the size programs see over the size in a, which the caller read from the backing
// file by its path. With no state for the file there is no unsynced data and no fsync to race
// with, and that size stands. With a state, the size is read again under the file's lock: an fsync that ran since the
// caller's stat moved unsynced bytes into the backing file, and the stat's older, shorter size is
// not the file's.
func (l *layer) fixAttr(ino uint64, a *fuse.Attr) {
	f := l.existing(ino)
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sizeSeen()
	if s < 0 {
		var st unix.Stat_t
		if f.fd < 0 || unix.Fstat(f.fd, &st) != nil {
			return
		}
		s = st.Size
	}
	a.Size = uint64(s)
	a.Blocks = (uint64(s) + 511) / 512
}

func (n *node) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	if n.l.isReserved(n.EmbeddedInode(), name) {
		return nil, syscall.ENOENT
	}
	n.l.barrier.RLock()
	defer n.l.barrier.RUnlock()
	ch, errno := n.LoopbackNode.Lookup(ctx, name, out)
	if errno == 0 {
		n.l.fixAttr(ch.StableAttr().Ino, &out.Attr)
	}
	return ch, errno
}

func (n *node) Getattr(ctx context.Context, f fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	n.l.barrier.RLock()
	defer n.l.barrier.RUnlock()
	if h, ok := f.(*handle); ok {
		return h.getattr(out)
	}
	if errno := n.LoopbackNode.Getattr(ctx, nil, out); errno != 0 {
		return errno
	}
	n.l.fixAttr(n.ino(), &out.Attr)
	return 0
}

// Statx is refused so that the kernel asks with GETATTR, which carries the size programs see.
func (n *node) Statx(ctx context.Context, f fs.FileHandle, flags uint32, mask uint32, out *fuse.StatxOut) syscall.Errno {
	return syscall.ENOSYS
}

// Setattr: a size change is an unsynced truncate, like a write; mode, owner and times pass
// straight through to the backing file and are durable at once (see README.md).
func (n *node) Setattr(ctx context.Context, f fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	n.l.barrier.RLock()
	if size, ok := in.GetSize(); ok {
		var errno syscall.Errno
		if h, ok := f.(*handle); ok {
			errno = h.f.truncateLocked(int64(size))
		} else {
			errno = n.truncateByPath(int64(size))
		}
		if errno != 0 {
			n.l.barrier.RUnlock()
			return errno
		}
	}
	rest := *in
	rest.Valid &^= fuse.FATTR_SIZE | fuse.FATTR_FH
	var errno syscall.Errno
	if rest.Valid&(fuse.FATTR_MODE|fuse.FATTR_UID|fuse.FATTR_GID|fuse.FATTR_ATIME|fuse.FATTR_MTIME|fuse.FATTR_ATIME_NOW|fuse.FATTR_MTIME_NOW) != 0 {
		errno = n.LoopbackNode.Setattr(ctx, nil, &rest, out)
	}
	n.l.barrier.RUnlock()
	if errno != 0 {
		return errno
	}
	return n.Getattr(ctx, f, out)
}

// truncateByPath is truncate(2) on a path: the file need not be open.
func (n *node) truncateByPath(size int64) syscall.Errno {
	f, errno := n.l.acquire(n.ino(), n.EmbeddedInode(), n.openBacking)
	if errno != 0 {
		return errno
	}
	defer n.l.release(f)
	return f.truncateLocked(size)
}

func (f *fileState) truncateLocked(size int64) syscall.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.truncate(size)
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	n.l.barrier.RLock()
	defer n.l.barrier.RUnlock()
	f, errno := n.l.acquire(n.ino(), n.EmbeddedInode(), n.openBacking)
	if errno != 0 {
		return nil, 0, errno
	}
	return n.l.newHandle(f, flags)
}

// Create makes the file with O_EXCL in the backing directory, so the layer knows whether the
// name is new (a name change to journal) or was there already.
func (n *node) Create(ctx context.Context, name string, flags uint32, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	dir := n.EmbeddedInode()
	if n.l.isReserved(dir, name) {
		return nil, nil, 0, errReserved
	}
	n.l.barrier.RLock()
	defer n.l.barrier.RUnlock()
	p := filepath.Join(n.backingPath(), name)

	n.l.mu.Lock()
	fd, err := unix.Open(p, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, mode&0o7777)
	if err == nil {
		if caller, ok := fuse.FromContext(ctx); ok {
			unix.Fchown(fd, int(caller.Uid), int(caller.Gid))
		}
		n.l.record(&metaOp{kind: opAdded, dir: dir, dirIno: n.ino(), name: name, path: p})
	} else if err == unix.EEXIST && flags&unix.O_EXCL == 0 {
		fd, err = openBacking(p)
	}
	n.l.mu.Unlock()
	if err != nil {
		return nil, nil, 0, errnoOf(err)
	}

	ch, errno := n.LoopbackNode.Lookup(ctx, name, out)
	if errno != 0 {
		unix.Close(fd)
		return nil, nil, 0, errno
	}
	used := false
	f, _ := n.l.acquire(ch.StableAttr().Ino, ch, func() (int, error) { used = true; return fd, nil })
	if !used {
		unix.Close(fd) // the file was open already (a race with another open, or a hard link)
	}
	h, fuseFlags, errno := n.l.newHandle(f, flags)
	if errno != 0 {
		return nil, nil, 0, errno
	}
	n.l.fixAttr(ch.StableAttr().Ino, &out.Attr)
	return ch, h, fuseFlags, 0
}

// Tmpfile is refused: a file with no name has nothing for a power loss to take but its data,
// and programs fall back to a named file.
func (n *node) Tmpfile(ctx context.Context, flags uint32, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	return nil, nil, 0, syscall.EOPNOTSUPP
}

// CopyFileRange is refused so the kernel copies through READ and WRITE, which the layer sees.
func (n *node) CopyFileRange(ctx context.Context, fhIn fs.FileHandle, offIn uint64, out *fs.Inode, fhOut fs.FileHandle, offOut uint64, length uint64, flags uint64) (uint32, syscall.Errno) {
	return 0, syscall.ENOSYS
}

// added journals a name the loopback just made (mkdir, mknod, symlink, link).
func (n *node) added(name string, isDir bool) {
	n.l.record(&metaOp{kind: opAdded, isDir: isDir, dir: n.EmbeddedInode(), dirIno: n.ino(), name: name,
		path: filepath.Join(n.backingPath(), name)})
}

// makeName runs mk, the loopback making name in this directory, under the barrier and the
// journal's lock, and journals the name it made. With fix, the new entry's size is then put right
// (a hard link's file may hold unsynced data).
func (n *node) makeName(name string, isDir, fix bool, out *fuse.EntryOut, mk func() (*fs.Inode, syscall.Errno)) (*fs.Inode, syscall.Errno) {
	if n.l.isReserved(n.EmbeddedInode(), name) {
		return nil, errReserved
	}
	n.l.barrier.RLock()
	defer n.l.barrier.RUnlock()
	n.l.mu.Lock()
	ch, errno := mk()
	if errno == 0 {
		n.added(name, isDir)
	}
	n.l.mu.Unlock()
	if errno == 0 && fix {
		n.l.fixAttr(ch.StableAttr().Ino, &out.Attr)
	}
	return ch, errno
}

func (n *node) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.makeName(name, true, false, out, func() (*fs.Inode, syscall.Errno) {
		return n.LoopbackNode.Mkdir(ctx, name, mode, out)
	})
}

func (n *node) Mknod(ctx context.Context, name string, mode, rdev uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.makeName(name, false, false, out, func() (*fs.Inode, syscall.Errno) {
		return n.LoopbackNode.Mknod(ctx, name, mode, rdev, out)
	})
}

func (n *node) Symlink(ctx context.Context, target, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.makeName(name, false, false, out, func() (*fs.Inode, syscall.Errno) {
		return n.LoopbackNode.Symlink(ctx, target, name, out)
	})
}

func (n *node) Link(ctx context.Context, target fs.InodeEmbedder, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	return n.makeName(name, false, true, out, func() (*fs.Inode, syscall.Errno) {
		return n.LoopbackNode.Link(ctx, target, name, out)
	})
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	return n.remove(name, false)
}

func (n *node) Rmdir(ctx context.Context, name string) syscall.Errno {
	return n.remove(name, true)
}

// remove moves the entry to trash instead of deleting it, so a drop can put it back.
func (n *node) remove(name string, wantDir bool) syscall.Errno {
	if n.l.isReserved(n.EmbeddedInode(), name) {
		return syscall.ENOENT
	}
	n.l.barrier.RLock()
	defer n.l.barrier.RUnlock()
	n.l.mu.Lock()
	defer n.l.mu.Unlock()
	p := filepath.Join(n.backingPath(), name)
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return errnoOf(err)
	}
	isDir := st.Mode&unix.S_IFMT == unix.S_IFDIR
	if errno := mayReplace(wantDir, isDir, p); errno != 0 {
		return errno
	}
	t := n.l.trashPath()
	if err := unix.Rename(p, t); err != nil {
		return errnoOf(err)
	}
	n.l.record(&metaOp{kind: opRemoved, isDir: isDir, dir: n.EmbeddedInode(), dirIno: n.ino(), name: name, path: p, trash: t})
	return 0
}

// Rename journals a replaced target as a removal (its entry moves to trash) followed by the
// rename itself, so undoing both, newest first, brings both names back.
func (n *node) Rename(ctx context.Context, name string, newParent fs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	np, ok := newParent.(*node)
	if !ok {
		return syscall.EXDEV
	}
	if n.l.isReserved(n.EmbeddedInode(), name) || n.l.isReserved(np.EmbeddedInode(), newName) {
		return errReserved
	}
	n.l.barrier.RLock()
	defer n.l.barrier.RUnlock()
	n.l.mu.Lock()
	defer n.l.mu.Unlock()
	p1 := filepath.Join(n.backingPath(), name)
	p2 := filepath.Join(np.backingPath(), newName)
	op := &metaOp{kind: opRenamed, dir: n.EmbeddedInode(), dirIno: n.ino(), name: name,
		dir2: np.EmbeddedInode(), dir2Ino: np.ino(), name2: newName, path: p1, path2: p2}

	if flags&unix.RENAME_EXCHANGE != 0 {
		if err := unix.Renameat2(unix.AT_FDCWD, p1, unix.AT_FDCWD, p2, unix.RENAME_EXCHANGE); err != nil {
			return errnoOf(err)
		}
		op.kind = opExchanged
		n.l.record(op)
		return 0
	}
	if flags&^unix.RENAME_NOREPLACE != 0 {
		return syscall.EINVAL
	}

	var src, dst unix.Stat_t
	if err := unix.Lstat(p1, &src); err != nil {
		return errnoOf(err)
	}
	var victim *metaOp
	if err := unix.Lstat(p2, &dst); err == nil {
		if flags&unix.RENAME_NOREPLACE != 0 {
			return syscall.EEXIST
		}
		if src.Ino == dst.Ino && src.Dev == dst.Dev {
			return 0 // two names of one file: rename(2) does nothing
		}
		srcDir, dstDir := src.Mode&unix.S_IFMT == unix.S_IFDIR, dst.Mode&unix.S_IFMT == unix.S_IFDIR
		if errno := mayReplace(srcDir, dstDir, p2); errno != 0 {
			return errno
		}
		victim = &metaOp{kind: opRemoved, isDir: dstDir, dir: np.EmbeddedInode(), dirIno: np.ino(), name: newName,
			path: p2, trash: n.l.trashPath()}
		if err := unix.Rename(p2, victim.trash); err != nil {
			return errnoOf(err)
		}
	} else if err != unix.ENOENT {
		return errnoOf(err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, p1, unix.AT_FDCWD, p2, unix.RENAME_NOREPLACE); err != nil {
		if victim != nil {
			unix.Rename(victim.trash, p2) // the rename failed: the target stays as it was
		}
		return errnoOf(err)
	}
	if victim != nil {
		n.l.record(victim)
	}
	n.l.record(op)
	return 0
}

func (n *node) OpendirHandle(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	n.l.barrier.RLock()
	defer n.l.barrier.RUnlock()
	fd, err := unix.Open(n.backingPath(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, 0, errnoOf(err)
	}
	ds, errno := fs.NewLoopbackDirStreamFd(fd)
	if errno != 0 {
		unix.Close(fd)
		return nil, 0, errno
	}
	return &dirHandle{ds: ds, n: n, hideTrash: n.EmbeddedInode().IsRoot()}, 0, 0
}

func (n *node) openBacking() (int, error) { return openBacking(n.backingPath()) }

// mayReplace is what rmdir (wantDir) or unlink, or a rename of a directory (wantDir) or not,
// answers when the entry at p, a directory if isDir, is to go: 0 where it may.
func mayReplace(wantDir, isDir bool, p string) syscall.Errno {
	switch {
	case wantDir && !isDir:
		return syscall.ENOTDIR
	case !wantDir && isDir:
		return syscall.EISDIR
	case isDir && !isEmptyDir(p):
		return syscall.ENOTEMPTY
	}
	return 0
}

func isEmptyDir(p string) bool {
	d, err := os.Open(p)
	if err != nil {
		return false
	}
	defer d.Close()
	_, err = d.Readdirnames(1)
	return err == io.EOF
}

// openBacking opens a backing file read-write when it can: the layer's descriptor serves every
// handle of the file and makes its data durable, whatever mode a program opened it with.
func openBacking(p string) (int, error) {
	fd, err := unix.Open(p, unix.O_RDWR|unix.O_CLOEXEC, 0)
	switch err {
	case unix.EACCES, unix.EROFS, unix.ETXTBSY, unix.EISDIR:
		fd, err = unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	return fd, err
}
