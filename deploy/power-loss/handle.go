package main

import (
	"context"
	"log"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
	"golang.org/x/sys/unix"
)

// handle is an open regular file. Reads and writes go to the file's state, never straight to
// the backing file; fsync is what moves data into the backing file.
type handle struct {
	l *layer
	f *fileState
	// sync: opened with O_SYNC or O_DSYNC, so every write is durable when it returns.
	sync, dsync bool
}

// newHandle opens a handle on f. O_TRUNC is an unsynced truncate like any other (the kernel
// usually sends it as a separate SETATTR; this covers the case where it comes with the open).
func (l *layer) newHandle(f *fileState, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	h := &handle{l: l, f: f, sync: flags&unix.O_SYNC == unix.O_SYNC, dsync: flags&unix.O_DSYNC != 0}
	if flags&unix.O_TRUNC != 0 {
		if errno := f.truncateLocked(0); errno != 0 {
			l.release(f)
			return nil, 0, errno
		}
	}
	// No FOPEN_KEEP_CACHE: each open drops the kernel's cached pages of the file, so a
	// program starting after a drop reads what the layer holds. No FOPEN_DIRECT_IO either:
	// programs (Kafka's indexes) map files shared and writable, which direct I/O refuses.
	return h, 0, 0
}

func (h *handle) Read(ctx context.Context, buf []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	h.l.barrier.RLock()
	defer h.l.barrier.RUnlock()
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	n, errno := h.f.read(buf, off)
	if errno != 0 {
		return nil, errno
	}
	return fuse.ReadResultData(buf[:n]), 0
}

func (h *handle) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	return h.Writev(ctx, [][]byte{data}, off)
}

func (h *handle) Writev(ctx context.Context, data [][]byte, off int64) (uint32, syscall.Errno) {
	h.l.barrier.RLock()
	defer h.l.barrier.RUnlock()
	h.f.mu.Lock()
	written := 0
	var errno syscall.Errno
	for _, d := range data {
		if errno = h.f.write(d, off+int64(written)); errno != 0 {
			break
		}
		written += len(d)
	}
	if errno == 0 && (h.sync || h.dsync) {
		errno = h.f.flush(!h.sync)
	}
	h.f.mu.Unlock()
	if errno == 0 && (h.sync || h.dsync) {
		errno = h.l.commitNamesForFile()
	}
	return uint32(written), errno
}

// Fsync is fsync(2) and fdatasync(2) on the file, and msync(MS_SYNC) on a mapping of it (the
// kernel writes the mapping's dirty pages to the layer first, then sends FSYNC).
func (h *handle) Fsync(ctx context.Context, flags uint32) syscall.Errno {
	h.l.barrier.RLock()
	defer h.l.barrier.RUnlock()
	h.f.mu.Lock()
	errno := h.f.flush(flags&fsyncDatasync != 0)
	h.f.mu.Unlock()
	if errno != 0 {
		return errno
	}
	return h.l.commitNamesForFile()
}

// Flush is close(2): it makes nothing durable.
func (h *handle) Flush(ctx context.Context) syscall.Errno { return 0 }

func (h *handle) Release(ctx context.Context) syscall.Errno {
	h.l.barrier.RLock()
	defer h.l.barrier.RUnlock()
	h.l.release(h.f)
	return 0
}

func (h *handle) Allocate(ctx context.Context, off uint64, size uint64, mode uint32) syscall.Errno {
	h.l.barrier.RLock()
	defer h.l.barrier.RUnlock()
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	return h.f.allocate(int64(off), int64(size), mode)
}

// getattr is fstat(2): the backing file's attributes with the size programs see.
// The fstat and the unsynced size are read under the file's lock: an fsync between them would
// move the unsynced bytes into the backing file after the fstat saw its older, shorter size.
func (h *handle) getattr(out *fuse.AttrOut) syscall.Errno {
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	var st syscall.Stat_t
	if err := syscall.Fstat(h.f.fd, &st); err != nil {
		return errnoOf(err)
	}
	out.FromStat(&st)
	if s := h.f.sizeSeen(); s >= 0 {
		out.Size = uint64(s)
		out.Blocks = (uint64(s) + 511) / 512
	}
	return 0
}

// commitNamesForFile applies the names rule after a file's data became durable.
func (l *layer) commitNamesForFile() syscall.Errno {
	if err := l.commitForFile(); err != nil {
		log.Printf("commit: %v", err)
		return syscall.EIO
	}
	return 0
}

// dirHandle is an open directory: the loopback's listing without the layer's trash, and an
// fsync that makes name changes durable.
type dirHandle struct {
	ds        fs.DirStream
	n         *node
	hideTrash bool
}

func (d *dirHandle) Readdirent(ctx context.Context) (*fuse.DirEntry, syscall.Errno) {
	for {
		e, errno := d.ds.(fs.FileReaddirenter).Readdirent(ctx)
		if errno != 0 || e == nil || !d.hideTrash || e.Name != trashName {
			return e, errno
		}
	}
}

func (d *dirHandle) Seekdir(ctx context.Context, off uint64) syscall.Errno {
	return d.ds.(fs.FileSeekdirer).Seekdir(ctx, off)
}

func (d *dirHandle) Releasedir(ctx context.Context, flags uint32) {
	d.ds.(fs.FileReleasedirer).Releasedir(ctx, flags)
}

// Fsyncdir makes the directory's name changes durable (and, by the journal's order, every
// earlier one), then fsyncs the backing directory for real.
func (d *dirHandle) Fsyncdir(ctx context.Context, flags uint32) syscall.Errno {
	d.n.l.barrier.RLock()
	defer d.n.l.barrier.RUnlock()
	if err := d.n.l.commitForDir(d.n.ino()); err != nil {
		log.Printf("commit: %v", err)
		return syscall.EIO
	}
	return d.ds.(fs.FileFsyncdirer).Fsyncdir(ctx, flags)
}

// fsyncDatasync is FUSE_FSYNC_FDATASYNC, the bit of an FSYNC request that says fdatasync(2).
const fsyncDatasync = 1
