package main

import (
	"sort"
	"sync"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"golang.org/x/sys/unix"
)

// fileState is what the layer knows of one regular file (one backing inode): the descriptor it
// reads and writes the backing file through, and the content written since the file's last
// fsync. The backing file itself always holds exactly the durable content, so a power loss is
// nothing more than forgetting the unsynced part.
//
// The unsynced part is kept as
//   - extents: byte ranges written since the last fsync, sorted and never overlapping;
//   - size: the file's size as programs see it;
//   - floor: the smallest size the file was truncated to since the last fsync (at most the
//     durable size). Backing bytes at or past floor are no longer part of the file: after a
//     truncate to 0 and a rewrite, a read must never show the old bytes between.
//
// All fields but opens are guarded by mu; opens is guarded by the layer's mu.
type fileState struct {
	mu    sync.Mutex
	ino   uint64
	inode *fs.Inode // for invalidating the kernel's cache of this file after a drop
	fd    int       // the backing file, opened read-write by the layer

	opens int // file handles open on this state

	dirty   bool
	durable int64 // the backing file's size: the durable size
	floor   int64
	size    int64
	extents []extent
	held    int64 // bytes in extents: what a drop would lose of this file's data
}

type extent struct {
	off  int64
	data []byte
}

func (e *extent) end() int64 { return e.off + int64(len(e.data)) }

// begin starts tracking unsynced changes: the durable size is the backing file's size now,
// since nothing but a flush ever writes the backing file.
func (f *fileState) begin() syscall.Errno {
	if f.dirty {
		return 0
	}
	var st unix.Stat_t
	if err := unix.Fstat(f.fd, &st); err != nil {
		return errnoOf(err)
	}
	f.durable, f.floor, f.size = st.Size, st.Size, st.Size
	f.dirty = true
	return 0
}

// write keeps data at off as unsynced. The data is copied: the caller's buffer is the FUSE
// request's, reused for the next request.
func (f *fileState) write(data []byte, off int64) syscall.Errno {
	if errno := f.begin(); errno != 0 {
		return errno
	}
	f.put(off, data)
	if end := off + int64(len(data)); end > f.size {
		f.size = end
	}
	return 0
}

// put merges [off, off+len(data)) into the extents, replacing what it overlaps.
func (f *fileState) put(off int64, data []byte) {
	end := off + int64(len(data))
	// Sequential appends, the common case for a log, grow the last extent in place.
	if n := len(f.extents); n > 0 && f.extents[n-1].end() == off {
		f.extents[n-1].data = append(f.extents[n-1].data, data...)
		f.held += int64(len(data))
		return
	}
	// Extents i..j-1 overlap or touch the new range; they become one extent.
	i := sort.Search(len(f.extents), func(k int) bool { return f.extents[k].end() >= off })
	j := i
	for j < len(f.extents) && f.extents[j].off <= end {
		j++
	}
	if i == j {
		f.extents = append(f.extents, extent{})
		copy(f.extents[i+1:], f.extents[i:])
		f.extents[i] = extent{off: off, data: append([]byte(nil), data...)}
		f.held += int64(len(data))
		return
	}
	start, stop := min(off, f.extents[i].off), max(end, f.extents[j-1].end())
	merged := make([]byte, stop-start)
	for _, e := range f.extents[i:j] {
		copy(merged[e.off-start:], e.data)
		f.held -= int64(len(e.data))
	}
	copy(merged[off-start:], data)
	f.held += int64(len(merged))
	f.extents[i] = extent{off: start, data: merged}
	f.extents = append(f.extents[:i+1], f.extents[j:]...)
}

// truncate sets the size; bytes past it are gone from the unsynced extents, and backing bytes
// past it are hidden until a flush makes the truncate durable (or a drop forgets it).
func (f *fileState) truncate(size int64) syscall.Errno {
	if errno := f.begin(); errno != 0 {
		return errno
	}
	kept := f.extents[:0]
	for _, e := range f.extents {
		switch {
		case e.off >= size:
			f.held -= int64(len(e.data))
		case e.end() > size:
			f.held -= e.end() - size
			e.data = e.data[:size-e.off]
			kept = append(kept, e)
		default:
			kept = append(kept, e)
		}
	}
	f.extents = kept
	f.size = size
	f.floor = min(f.floor, size)
	return 0
}

// allocate answers fallocate(2). Growing the size (mode 0) is an unsynced size change like a
// write of zeros; keeping the size (KEEP_SIZE) changes nothing a program can read; punching or
// zeroing a range is an unsynced write of zeros. Other modes (collapse, insert) are refused.
func (f *fileState) allocate(off, length int64, mode uint32) syscall.Errno {
	keep := mode&unix.FALLOC_FL_KEEP_SIZE != 0
	switch mode &^ unix.FALLOC_FL_KEEP_SIZE {
	case 0:
		if keep {
			return 0
		}
		if errno := f.begin(); errno != 0 {
			return errno
		}
		if off+length > f.size {
			f.size = off + length
		}
		return 0
	case unix.FALLOC_FL_PUNCH_HOLE, unix.FALLOC_FL_ZERO_RANGE:
		if errno := f.begin(); errno != 0 {
			return errno
		}
		end := off + length
		if keep || mode&unix.FALLOC_FL_PUNCH_HOLE != 0 {
			end = min(end, f.size)
		}
		if end > off {
			f.put(off, make([]byte, end-off))
			f.size = max(f.size, end)
		}
		return 0
	}
	return syscall.EOPNOTSUPP
}

// read fills buf from offset off with the file as programs see it: the durable bytes below
// floor, zeros above, and the unsynced extents on top.
func (f *fileState) read(buf []byte, off int64) (int, syscall.Errno) {
	if !f.dirty {
		return preadFull(f.fd, buf, off)
	}
	if off >= f.size {
		return 0, 0
	}
	n := min(int64(len(buf)), f.size-off)
	out := buf[:n]
	fromBacking := int64(0)
	if off < f.floor {
		got, errno := preadFull(f.fd, out[:min(n, f.floor-off)], off)
		if errno != 0 {
			return 0, errno
		}
		fromBacking = int64(got)
	}
	clear(out[fromBacking:])
	first := sort.Search(len(f.extents), func(k int) bool { return f.extents[k].end() > off })
	for _, e := range f.extents[first:] {
		if e.off >= off+n {
			break
		}
		lo, hi := max(e.off, off), min(e.end(), off+n)
		copy(out[lo-off:hi-off], e.data[lo-e.off:hi-e.off])
	}
	return int(n), 0
}

// flush makes the file's content durable: it applies the unsynced changes to the backing file
// (truncate to the floor, the extents, the final size) and then fsyncs the backing file for
// real, so an fsync through the layer costs what an fsync of the backing disk costs.
func (f *fileState) flush(datasync bool) syscall.Errno {
	if f.dirty {
		if f.floor < f.durable {
			if err := unix.Ftruncate(f.fd, f.floor); err != nil {
				return errnoOf(err)
			}
		}
		reach := f.floor
		for _, e := range f.extents {
			if errno := pwriteFull(f.fd, e.data, e.off); errno != 0 {
				return errno
			}
			reach = max(reach, e.end())
		}
		if reach != f.size {
			if err := unix.Ftruncate(f.fd, f.size); err != nil {
				return errnoOf(err)
			}
		}
	}
	var err error
	if datasync {
		err = unix.Fdatasync(f.fd)
	} else {
		err = unix.Fsync(f.fd)
	}
	if err != nil {
		return errnoOf(err)
	}
	if f.dirty {
		f.durable, f.floor = f.size, f.size
		f.forget()
	}
	return 0
}

// forget discards every unsynced change: the file is its backing file again.
func (f *fileState) forget() {
	f.extents = nil
	f.held = 0
	f.dirty = false
}

// sizeSeen is the size programs see, or -1 when the backing file's own size is it.
func (f *fileState) sizeSeen() int64 {
	if !f.dirty {
		return -1
	}
	return f.size
}

func preadFull(fd int, buf []byte, off int64) (int, syscall.Errno) {
	done := 0
	for done < len(buf) {
		n, err := unix.Pread(fd, buf[done:], off+int64(done))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, errnoOf(err)
		}
		if n == 0 {
			break
		}
		done += n
	}
	return done, 0
}

func pwriteFull(fd int, buf []byte, off int64) syscall.Errno {
	for len(buf) > 0 {
		n, err := unix.Pwrite(fd, buf, off)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return errnoOf(err)
		}
		buf, off = buf[n:], off+int64(n)
	}
	return 0
}

func errnoOf(err error) syscall.Errno {
	return fs.ToErrno(err)
}
