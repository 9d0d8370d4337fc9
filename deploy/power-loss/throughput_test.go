package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Not an assertion: what the layer costs a program appending 1 KB records, with and without
// an fdatasync after each, beside the same appends to the backing filesystem directly.
func TestAppendThroughput(t *testing.T) {
	const (
		plainAppends  = 20000 // 20 MB
		syncedAppends = 300
	)
	tl := mountForTest(t, namesStrict)
	direct := t.TempDir()
	for _, target := range []struct{ name, dir string }{{"direct", direct}, {"layer ", tl.mnt}} {
		// The synced appends first: behind 20 MB of unsynced appends, the disk's fsyncs would
		// also wait for the kernel writing those back.
		synced := appendRate(t, filepath.Join(target.dir, "synced"), syncedAppends, true)
		plain := appendRate(t, filepath.Join(target.dir, "plain"), plainAppends, false)
		t.Logf("%s: %7.0f appends/s (%5.1f MB/s) without fsync; %6.0f appends/s with fdatasync after each",
			target.name, plain, plain/1024, synced)
	}
}

// appendRate appends n 1 KB records to a new file and returns appends per second.
func appendRate(t *testing.T, path string, n int, sync bool) float64 {
	f := openFile(t, path, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
	defer f.Close()
	rec := make([]byte, 1024)
	for i := range rec {
		rec[i] = byte('a' + i%26)
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		if _, err := f.Write(rec); err != nil {
			t.Fatal(err)
		}
		if sync {
			if err := unix.Fdatasync(int(f.Fd())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return float64(n) / time.Since(start).Seconds()
}
