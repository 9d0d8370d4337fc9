package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestMain also lets the test binary stand in for the command (the CLI test runs it as
// plumb-power-loss) and for the appending program the crash test kills. Every other test needs a
// real mount: without root and FUSE the run fails, in one line, rather than skipping.
func TestMain(m *testing.M) {
	if os.Getenv("PLUMB_POWER_LOSS_RUN_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	if path := os.Getenv("PLUMB_POWER_LOSS_APPENDER"); path != "" {
		os.Exit(appender(path))
	}
	if path := os.Getenv("PLUMB_POWER_LOSS_MAPPER"); path != "" {
		os.Exit(mapper(path))
	}
	if err := fuseWorks(); err != nil {
		fmt.Printf("power-loss layer tests need root and FUSE: %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// testLayer is a layer mounted in a temporary directory for one test.
type testLayer struct {
	m            *mount
	mnt, backing string
}

func mountForTest(t *testing.T, names namesRule) *testLayer {
	t.Helper()
	dir := t.TempDir()
	tl := &testLayer{backing: filepath.Join(dir, "backing"), mnt: filepath.Join(dir, "mnt")}
	if err := os.Mkdir(tl.backing, 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := mountLayer(mountConfig{backing: tl.backing, mountpoint: tl.mnt, names: names})
	if err != nil {
		t.Fatal(err)
	}
	tl.m = m
	// Runs before TempDir's own cleanup: the mount must be gone before its directory is.
	t.Cleanup(func() {
		if err := m.unmount(); err != nil {
			t.Errorf("unmount: %v", err)
			m.server.Unmount()
		}
	})
	return tl
}

func (tl *testLayer) path(name string) string { return filepath.Join(tl.mnt, name) }

// mountWithDurable mounts a layer with one file, name, whose content (data) and name are durable;
// it returns the layer and the file's path on the mount.
func mountWithDurable(t *testing.T, names namesRule, name, data string) (*testLayer, string) {
	t.Helper()
	tl := mountForTest(t, names)
	p := tl.path(name)
	durable(t, p, data)
	return tl, p
}

// drop is a power loss; the test has closed its files first, as a killed program's are.
func (tl *testLayer) drop(t *testing.T) dropResult {
	t.Helper()
	r := tl.m.l.drop()
	if len(r.errors) > 0 {
		t.Fatalf("drop: %v", r.errors)
	}
	return r
}

// write creates or replaces name's content; with sync it fsyncs the file before closing.
func write(t *testing.T, path string, data string, sync bool) {
	t.Helper()
	writeOpen(t, path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, data, sync)
}

func appendTo(t *testing.T, path string, data string, sync bool) {
	t.Helper()
	writeOpen(t, path, os.O_WRONLY|os.O_APPEND, data, sync)
}

// writeOpen opens path with flag, writes data, fsyncs the file if sync, and closes it.
func writeOpen(t *testing.T, path string, flag int, data string, sync bool) {
	t.Helper()
	f := openFile(t, path, flag)
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// openFile opens path with flag (creating it 0644 where flag says so), or fails the test.
func openFile(t *testing.T, path string, flag int) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// syncDir fsyncs a directory.
func syncDir(t *testing.T, path string) {
	t.Helper()
	d := openFile(t, path, os.O_RDONLY)
	defer d.Close()
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
}

// durable writes a file and makes both its content and its name durable.
func durable(t *testing.T, path, data string) {
	t.Helper()
	write(t, path, data, true)
	syncDir(t, filepath.Dir(path))
}

func expectContent(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !bytes.Equal(got, []byte(want)) {
		t.Fatalf("%s holds %q, want %q", path, got, want)
	}
}

func expectGone(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s: want it gone, got %v", path, err)
	}
}
