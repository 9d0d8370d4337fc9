package main

import (
	"fmt"
	"os"

	"github.com/hanwen/go-fuse/v2/fs"
	"golang.org/x/sys/unix"
)

// A name change (create, mkdir, mknod, symlink, link, unlink, rmdir, rename) is applied to the
// backing directory at once, so the mount behaves as any filesystem would, and is recorded in
// the journal until it becomes durable. A drop undoes the journal's records newest first.
//
// Records become durable in order, a prefix of the journal at a time, as a journaling
// filesystem commits its journal: the layer never keeps a later name change while losing an
// earlier one. That is also what makes undoing simple: the records still pending are always the
// newest ones, so when a record is undone the backing directory is exactly as that operation
// left it, and the paths the record holds are right again.
type opKind int

const (
	// opAdded: a name was made (file, directory, node, symlink or hard link) at path.
	opAdded opKind = iota
	// opRemoved: the name at path was removed; the layer moved the entry to trash instead,
	// where it waits for the removal to become durable (then it is deleted) or to be undone.
	opRemoved
	// opRenamed: the entry at path moved to path2 (nothing was at path2: a replaced target is
	// an opRemoved record just before).
	opRenamed
	// opExchanged: path and path2 swapped entries (renameat2 with RENAME_EXCHANGE).
	opExchanged
)

type metaOp struct {
	kind  opKind
	isDir bool // of the entry at path (opAdded, opRemoved)

	// The directories holding the names, as the kernel knows them (to put go-fuse's tree and
	// the kernel's cache right after an undo) and by inode number (to know which directory
	// fsync makes the record durable).
	dir, dir2       *fs.Inode
	dirIno, dir2Ino uint64
	name, name2     string

	path, path2 string // backing paths
	trash       string // opRemoved: where the entry waits
}

func (op *metaOp) touches(dirIno uint64) bool {
	return op.dirIno == dirIno || (op.kind >= opRenamed && op.dir2Ino == dirIno)
}

// undo puts the backing directory back as it was before op, and go-fuse's view of the tree with
// it (go-fuse keeps names to compute backing paths, so it must follow).
func (op *metaOp) undo() error {
	switch op.kind {
	case opAdded:
		var err error
		if op.isDir {
			// Every later record is already undone, so the directory holds nothing the
			// journal knows of; anything left would be unreachable after a real power loss.
			err = os.RemoveAll(op.path)
		} else {
			err = unix.Unlink(op.path)
		}
		op.dir.RmChild(op.name)
		return wrapPath("remove", op.path, err)
	case opRemoved:
		return wrapPath("restore", op.path, unix.Renameat2(unix.AT_FDCWD, op.trash, unix.AT_FDCWD, op.path, unix.RENAME_NOREPLACE))
	case opRenamed:
		err := unix.Renameat2(unix.AT_FDCWD, op.path2, unix.AT_FDCWD, op.path, unix.RENAME_NOREPLACE)
		if err == nil {
			op.dir2.MvChild(op.name2, op.dir, op.name, true)
		}
		return wrapPath("rename back", op.path2, err)
	case opExchanged:
		err := unix.Renameat2(unix.AT_FDCWD, op.path, unix.AT_FDCWD, op.path2, unix.RENAME_EXCHANGE)
		if err == nil {
			op.dir.ExchangeChild(op.name, op.dir2, op.name2)
		}
		return wrapPath("exchange back", op.path, err)
	}
	return nil
}

// commit is called once the record is durable: a removed entry leaves the trash for good.
func (op *metaOp) commit() error {
	if op.kind != opRemoved {
		return nil
	}
	return wrapPath("delete", op.trash, os.RemoveAll(op.trash))
}

// notify tells the kernel that the names op touched changed behind its back. The layer mounts
// with zero entry and attribute timeouts, so the kernel asks again anyway; this only drops what
// it may still hold. Errors mean the kernel had nothing cached.
func (op *metaOp) notify() {
	op.dir.NotifyEntry(op.name)
	if op.kind >= opRenamed {
		op.dir2.NotifyEntry(op.name2)
	}
}

func wrapPath(what, path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s %s: %w", what, path, err)
}
