package main

import (
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSizeNeverShrinksDuringFsync: a file only appended to never looks shorter to fstat(2) or
// stat(2), however they interleave with the writer's fsyncs. An fsync moves the unsynced bytes
// into the backing file; a size read from the backing file before they landed and reported after
// the fsync ended showed the durable size, shorter than what the program wrote. The kernel then
// cut its own idea of the file's size, and Kafka found its metadata log "truncated during write"
// (its FileChannel.size() fell from 72 to 0) and a restarted node never came up.
func TestSizeNeverShrinksDuringFsync(t *testing.T) {
	_, p := mountWithDurable(t, namesJournaled, "log", "")
	w := openFile(t, p, os.O_WRONLY|os.O_APPEND)
	defer w.Close()
	r := openFile(t, p, os.O_RDONLY)
	defer r.Close()

	const appends, record = 1500, 100
	var written atomic.Int64 // bytes whose write(2) returned: no stat may show less
	var done atomic.Bool
	var wg sync.WaitGroup
	var shrank atomic.Value
	watch := func(stat func() (os.FileInfo, error)) {
		defer wg.Done()
		for !done.Load() {
			floor := written.Load()
			fi, err := stat()
			if err != nil {
				shrank.Store(err.Error())
				return
			}
			if fi.Size() < floor {
				shrank.Store(fi.Name() + ": size " + itoa(fi.Size()) + " after " + itoa(floor) + " bytes were written")
				return
			}
		}
	}
	wg.Add(2)
	go watch(r.Stat)                                            // fstat on an open descriptor: GETATTR with a handle
	go watch(func() (os.FileInfo, error) { return os.Stat(p) }) // stat by path: GETATTR without one
	data := make([]byte, record)
	for i := 0; i < appends && shrank.Load() == nil; i++ {
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		written.Add(record)
		if err := w.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	done.Store(true)
	wg.Wait()
	if s := shrank.Load(); s != nil {
		t.Fatal(s)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
