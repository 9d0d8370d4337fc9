package main

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// The unsynced state against a plain byte slice: random writes, truncates and zeroed ranges,
// read back after each, flushed or forgotten now and then. Reads must always match the model,
// the backing file must always hold the last flushed content, and a forget must bring exactly
// that back.
func TestUnsyncedStateMatchesModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("durable content at the start"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(path, unix.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	f := &fileState{fd: fd}
	durable := []byte("durable content at the start")
	model := append([]byte(nil), durable...)
	rng := rand.New(rand.NewSource(1))

	for step := 0; step < 5000; step++ {
		switch op := rng.Intn(20); {
		case op < 12:
			off := rng.Int63n(300)
			data := make([]byte, 1+rng.Intn(40))
			rng.Read(data)
			if errno := f.write(data, off); errno != 0 {
				t.Fatal(errno)
			}
			if end := off + int64(len(data)); end > int64(len(model)) {
				model = append(model, make([]byte, end-int64(len(model)))...)
			}
			copy(model[off:], data)
		case op < 15:
			size := rng.Int63n(300)
			if errno := f.truncate(size); errno != 0 {
				t.Fatal(errno)
			}
			if size < int64(len(model)) {
				model = model[:size]
			} else {
				model = append(model, make([]byte, size-int64(len(model)))...)
			}
		case op < 16:
			off, length := rng.Int63n(300), 1+rng.Int63n(60)
			if errno := f.allocate(off, length, unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE); errno != 0 {
				t.Fatal(errno)
			}
			for i := off; i < off+length && i < int64(len(model)); i++ {
				model[i] = 0
			}
		case op < 18:
			if errno := f.flush(rng.Intn(2) == 0); errno != 0 {
				t.Fatal(errno)
			}
			durable = append(durable[:0], model...)
		default:
			f.forget()
			model = append(model[:0], durable...)
		}

		buf := make([]byte, 400)
		n, errno := f.read(buf, 0)
		if errno != 0 {
			t.Fatal(errno)
		}
		if !bytes.Equal(buf[:n], model) {
			t.Fatalf("step %d: read %q, want %q", step, buf[:n], model)
		}
		if on, err := os.ReadFile(path); err != nil || !bytes.Equal(on, durable) {
			t.Fatalf("step %d: the backing file holds %q, want the durable %q", step, on, durable)
		}
		var held int64
		for i, e := range f.extents {
			held += int64(len(e.data))
			if i > 0 && f.extents[i-1].end() >= e.off {
				t.Fatalf("step %d: extents %d and %d overlap or touch", step, i-1, i)
			}
		}
		if held != f.held {
			t.Fatalf("step %d: held %d, extents hold %d", step, f.held, held)
		}
	}
}
