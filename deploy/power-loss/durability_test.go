package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestWrittenNotSyncedIsGone(t *testing.T) {
	tl, p := mountWithDurable(t, namesStrict, "log", "durable\n")
	appendTo(t, p, "lost\n", false)
	expectContent(t, p, "durable\nlost\n")

	r := tl.drop(t)
	if r.bytes != len("lost\n") || r.files != 1 {
		t.Errorf("drop discarded %d bytes of %d files, want 5 bytes of 1", r.bytes, r.files)
	}
	expectContent(t, p, "durable\n")
	// The backing directory holds exactly the durable state all along.
	expectContent(t, tl.backing+"/log", "durable\n")
}

func TestFsyncSurvives(t *testing.T) {
	tl, p := mountWithDurable(t, namesStrict, "log", "one\n")
	appendTo(t, p, "two\n", true)
	appendTo(t, p, "three\n", false)
	tl.drop(t)
	expectContent(t, p, "one\ntwo\n")
}

func TestFdatasyncSurvives(t *testing.T) {
	tl, p := mountWithDurable(t, namesStrict, "log", "one\n")
	f := openFile(t, p, os.O_WRONLY|os.O_APPEND)
	f.WriteString("two\n")
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		t.Fatal(err)
	}
	f.WriteString("three\n")
	f.Close()
	tl.drop(t)
	expectContent(t, p, "one\ntwo\n")
}

func TestSyncOpenWritesSurvive(t *testing.T) {
	for _, c := range []struct {
		name string
		flag int
	}{{"O_SYNC", unix.O_SYNC}, {"O_DSYNC", unix.O_DSYNC}} {
		t.Run(c.name, func(t *testing.T) {
			tl, p := mountWithDurable(t, namesStrict, "log", "")
			f := openFile(t, p, os.O_WRONLY|os.O_APPEND|c.flag)
			f.WriteString("kept 1\n")
			f.WriteString("kept 2\n")
			f.Close()
			tl.drop(t)
			expectContent(t, p, "kept 1\nkept 2\n")
		})
	}
}

func TestCreatedNeverSyncedIsGone(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	write(t, tl.path("new"), "data", false)
	if err := os.Mkdir(tl.path("dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, tl.path("dir/inner"), "data", false)
	r := tl.drop(t)
	if r.names != 3 {
		t.Errorf("drop undid %d name changes, want 3", r.names)
	}
	expectGone(t, tl.path("new"))
	expectGone(t, tl.path("dir"))
	expectGone(t, tl.backing+"/new")
}

// Under the strict rule a file's fsync makes its data durable but not its name: the name needs
// its directory's fsync. Under the journaled rule (ext4, XFS), the file's fsync commits the name.
func TestFileSyncedDirectoryNotSynced(t *testing.T) {
	for _, c := range []struct {
		names    namesRule
		survives bool
	}{{namesStrict, false}, {namesJournaled, true}} {
		t.Run(c.names.String(), func(t *testing.T) {
			tl := mountForTest(t, c.names)
			write(t, tl.path("new"), "data", true)
			tl.drop(t)
			if c.survives {
				expectContent(t, tl.path("new"), "data")
			} else {
				expectGone(t, tl.path("new"))
			}
		})
	}
}

// renamedOverDurable mounts a layer (the strict rule) with a durable file "current" ("old"), and
// renames over it "current.tmp" ("new"), whose content is durable and whose name is not.
func renamedOverDurable(t *testing.T) *testLayer {
	t.Helper()
	tl := mountForTest(t, namesStrict)
	durable(t, tl.path("current"), "old")
	write(t, tl.path("current.tmp"), "new", true)
	if err := os.Rename(tl.path("current.tmp"), tl.path("current")); err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestRenamedThenDirectorySyncedSurvives(t *testing.T) {
	tl := renamedOverDurable(t)
	syncDir(t, tl.mnt)
	tl.drop(t)
	expectContent(t, tl.path("current"), "new")
	expectGone(t, tl.path("current.tmp"))
}

func TestRenamedNotSyncedIsUndone(t *testing.T) {
	tl := renamedOverDurable(t)
	expectContent(t, tl.path("current"), "new")
	tl.drop(t)
	// The replaced file is back and the new one, whose name was never durable, is gone.
	expectContent(t, tl.path("current"), "old")
	expectGone(t, tl.path("current.tmp"))
}

func TestUnlinkNotSyncedComesBack(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	durable(t, tl.path("a"), "a")
	durable(t, tl.path("b"), "b")
	for _, n := range []string{"a", "b"} {
		if err := os.Remove(tl.path(n)); err != nil {
			t.Fatal(err)
		}
	}
	durable(t, tl.path("c"), "") // the directory fsync makes both removals durable
	if err := os.Remove(tl.path("c")); err != nil {
		t.Fatal(err)
	}
	tl.drop(t)
	expectGone(t, tl.path("a"))
	expectGone(t, tl.path("b"))
	expectContent(t, tl.path("c"), "")
}

// A directory fsync makes durable every earlier name change too (the journal commits in order),
// so the directory made just before a file in it survives with it.
func TestDirectorySyncCommitsEarlierNames(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	if err := os.Mkdir(tl.path("d"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, tl.path("d/f"), "data", true)
	syncDir(t, tl.path("d"))
	write(t, tl.path("later"), "data", true)
	tl.drop(t)
	expectContent(t, tl.path("d/f"), "data")
	expectGone(t, tl.path("later"))
}

func TestTruncate(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	p := tl.path("f")
	const original = "0123456789abcdef"

	// An unsynced truncate is lost.
	durable(t, p, original)
	if err := os.Truncate(p, 4); err != nil {
		t.Fatal(err)
	}
	expectContent(t, p, "0123")
	tl.drop(t)
	expectContent(t, p, original)

	// A truncate to 0 and a rewrite, unsynced, leave the old content whole.
	write(t, p, "new", false) // O_TRUNC, then a write
	expectContent(t, p, "new")
	tl.drop(t)
	expectContent(t, p, original)

	// Shrinking then growing again shows zeros, never the old bytes; the fsync keeps exactly that.
	f := openFile(t, p, os.O_RDWR)
	f.Truncate(2)
	f.Truncate(6)
	f.Sync()
	f.Close()
	expectContent(t, p, "01\x00\x00\x00\x00")
	tl.drop(t)
	expectContent(t, p, "01\x00\x00\x00\x00")

	// A truncate to 0 and a rewrite, synced, leave exactly the new content.
	write(t, p, "xy", true)
	tl.drop(t)
	expectContent(t, p, "xy")
}

// msync(MS_SYNC) arrives as an fsync; a mapping's changes without it are written to the layer
// when the mapping goes, and are lost like any unsynced write.
// The mapping is written by a child process: a page fault on the layer waits for the layer's own
// goroutines, and in the process that serves the mount a garbage collection that stops the world
// then waits for the faulting goroutine, which never gets there (seen as a hang in CI).
func TestMmap(t *testing.T) {
	tl, p := mountWithDurable(t, namesStrict, "mapped", strings.Repeat(".", 8192))
	mapAndWrite := func(at int, s string, msync bool) {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "PLUMB_POWER_LOSS_MAPPER="+p,
			"PLUMB_POWER_LOSS_MAP_AT="+strconv.Itoa(at), "PLUMB_POWER_LOSS_MAP_TEXT="+s,
			"PLUMB_POWER_LOSS_MAP_MSYNC="+strconv.FormatBool(msync))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mapper: %v: %s", err, out)
		}
	}
	mapAndWrite(0, "synced", true)
	mapAndWrite(4096, "unsynced", false)
	got, _ := os.ReadFile(p)
	if string(got[4096:4104]) != "unsynced" {
		t.Fatalf("the mapping's write did not reach the file: %q", got[4096:4104])
	}
	tl.drop(t)
	got, _ = os.ReadFile(p)
	if string(got[:6]) != "synced" || string(got[4096:4104]) != "........" {
		t.Fatalf("after the drop: %q at 0, %q at 4096; want the msynced write kept and the other lost",
			got[:6], got[4096:4104])
	}
}

// mapper is TestMmap's child: it maps the first 8 KB of path shared, copies the text in at the
// offset, msyncs if asked, and unmaps.
func mapper(path string) int {
	at, _ := strconv.Atoi(os.Getenv("PLUMB_POWER_LOSS_MAP_AT"))
	text := os.Getenv("PLUMB_POWER_LOSS_MAP_TEXT")
	msync := os.Getenv("PLUMB_POWER_LOSS_MAP_MSYNC") == "true"
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Close()
	mem, err := unix.Mmap(int(f.Fd()), 0, 8192, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	copy(mem[at:], text)
	if msync {
		if err := unix.Msync(mem, unix.MS_SYNC); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if err := unix.Munmap(mem); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// FUSE never sees sync_file_range(2): the data it waited for stays unsynced in the layer.
func TestSyncFileRangeIsNotSeen(t *testing.T) {
	tl, p := mountWithDurable(t, namesStrict, "log", "")
	f := openFile(t, p, os.O_WRONLY)
	f.WriteString("range")
	err := unix.SyncFileRange(int(f.Fd()), 0, 0,
		unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	tl.drop(t)
	expectContent(t, p, "")
}

func TestStatusAndSync(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	write(t, tl.path("a"), strings.Repeat("x", 1000), false)
	st := waitReleased(t, tl.m.l)
	for _, want := range []string{"unsynced_bytes=1000", "unsynced_files=1", "pending_names=1"} {
		if !strings.Contains(st, want+"\n") {
			t.Errorf("status lacks %s:\n%s", want, st)
		}
	}
	if err := tl.m.l.syncAll(); err != nil {
		t.Fatal(err)
	}
	if st := tl.m.l.status(); !strings.Contains(st, "unsynced_bytes=0\n") || !strings.Contains(st, "pending_names=0\n") {
		t.Errorf("after sync:\n%s", st)
	}
	tl.drop(t)
	expectContent(t, tl.path("a"), strings.Repeat("x", 1000))
}

// The mount never shows the layer's trash, and programs cannot make that name.
func TestTrashIsHidden(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	durable(t, tl.path("a"), "x")
	os.Remove(tl.path("a")) // now in trash, pending
	entries, err := os.ReadDir(tl.mnt)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("the mount lists %v, want nothing", entries)
	}
	expectGone(t, tl.path(trashName))
	if err := os.Mkdir(tl.path(trashName), 0o755); err == nil {
		t.Errorf("made %s on the mount", trashName)
	}
}

// The other name changes undo as they should: rmdir, a hard link, a rename over a directory,
// and renameat2's exchange.
func TestOtherNameChangesUndo(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	for _, d := range []string{"empty", "src", "dst"} {
		if err := os.Mkdir(tl.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	durable(t, tl.path("src/f"), "f")
	durable(t, tl.path("x"), "x")
	durable(t, tl.path("y"), "y")
	syncDir(t, tl.mnt)

	if err := os.Remove(tl.path("empty")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(tl.path("x"), tl.path("x-link")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Rename(tl.path("src"), tl.path("dst")); err != nil { // os.Rename refuses a directory target
		t.Fatal(err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, tl.path("x"), unix.AT_FDCWD, tl.path("y"), unix.RENAME_EXCHANGE); err != nil {
		t.Fatal(err)
	}
	expectContent(t, tl.path("x"), "y")
	expectContent(t, tl.path("dst/f"), "f")

	r := tl.drop(t)
	if r.names != 5 { // rmdir, link, the replaced dst, the rename, the exchange
		t.Errorf("drop undid %d name changes, want 5", r.names)
	}
	if st, err := os.Stat(tl.path("empty")); err != nil || !st.IsDir() {
		t.Errorf("empty: %v", err)
	}
	expectGone(t, tl.path("x-link"))
	expectContent(t, tl.path("src/f"), "f")
	if entries, err := os.ReadDir(tl.path("dst")); err != nil || len(entries) != 0 {
		t.Errorf("dst: %v %v, want the empty directory back", entries, err)
	}
	expectContent(t, tl.path("x"), "x")
	expectContent(t, tl.path("y"), "y")
}

// --writeback's periodic sync makes everything durable, as a kernel's writeback would.
func TestSyncAllIsWriteback(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	write(t, tl.path("a"), "written", false)
	if err := os.Mkdir(tl.path("d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := tl.m.l.syncAll(); err != nil {
		t.Fatal(err)
	}
	write(t, tl.path("d/b"), "after", false)
	tl.drop(t)
	expectContent(t, tl.path("a"), "written")
	expectGone(t, tl.path("d/b"))
	if _, err := os.Stat(tl.path("d")); err != nil {
		t.Error(err)
	}
}

// A file still open across a drop reads the durable content: the drop invalidates the kernel's
// cached pages and size of every file it touched.
func TestOpenAcrossDrop(t *testing.T) {
	tl, p := mountWithDurable(t, namesStrict, "f", "AAAA")
	f := openFile(t, p, os.O_RDWR)
	defer f.Close()
	f.WriteAt([]byte("BBBBBB"), 0)
	buf := make([]byte, 16)
	if n, _ := f.ReadAt(buf, 0); string(buf[:n]) != "BBBBBB" {
		t.Fatalf("before the drop: %q", buf[:n])
	}
	if r := tl.drop(t); r.openFiles < 1 {
		t.Errorf("drop counted %d open files, want at least this one", r.openFiles)
	}
	if n, _ := f.ReadAt(buf, 0); string(buf[:n]) != "AAAA" {
		t.Fatalf("after the drop, the open file reads %q, want %q", buf[:n], "AAAA")
	}
	if st, err := f.Stat(); err != nil || st.Size() != 4 {
		t.Fatalf("after the drop, fstat: %v, %v", st.Size(), err)
	}
}

// pwritev2 with RWF_DSYNC is durable when it returns: the kernel follows the write with an FSYNC.
func TestPwritev2DsyncSurvives(t *testing.T) {
	tl, p := mountWithDurable(t, namesStrict, "log", "")
	f := openFile(t, p, os.O_WRONLY)
	if _, err := unix.Pwritev2(int(f.Fd()), [][]byte{[]byte("kept")}, 0, unix.RWF_DSYNC); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tl.drop(t)
	expectContent(t, p, "kept")
}

// waitReleased returns the layer's status once no file is open: the kernel reports a close
// (RELEASE) after close(2) has returned.
func waitReleased(t *testing.T, l *layer) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := l.status()
		if strings.Contains(st, "open_files=0\n") {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("files still open after 5 s:\n%s", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A file written, closed and removed, with the removal made durable, holds nothing any more.
func TestRemovedFileDataIsForgotten(t *testing.T) {
	tl := mountForTest(t, namesStrict)
	durable(t, tl.path("a"), "")
	appendTo(t, tl.path("a"), "unsynced", false)
	if err := os.Remove(tl.path("a")); err != nil {
		t.Fatal(err)
	}
	waitReleased(t, tl.m.l)
	syncDir(t, tl.mnt)
	if st := tl.m.l.status(); !strings.Contains(st, "unsynced_bytes=0\n") {
		t.Errorf("after the removal became durable:\n%s", st)
	}
}
