package main

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// errNoFUSE marks a failure to mount at all: no /dev/fuse, or a kernel that refuses FUSE
// mounts. The command line reports it in one line and exits with exitNoFUSE.
var errNoFUSE = errors.New("FUSE is not available here")

// mount is one mounted layer.
type mount struct {
	l          *layer
	server     *fuse.Server
	mountpoint string
}

type mountConfig struct {
	backing, mountpoint string
	names               namesRule
	debug               bool
}

// mountLayer mounts a layer over cfg.backing at cfg.mountpoint and serves it.
func mountLayer(cfg mountConfig) (*mount, error) {
	if _, err := os.Stat("/dev/fuse"); err != nil {
		return nil, fmt.Errorf("%w (%v)", errNoFUSE, err)
	}
	backing, err := filepath.Abs(cfg.backing)
	if err != nil {
		return nil, err
	}
	mp, err := filepath.Abs(cfg.mountpoint)
	if err != nil {
		return nil, err
	}
	// The layer reaches the backing directory by path: under its own mount it would reach
	// itself. A node's data directory becomes the mount point, its files move to a backing
	// directory beside it.
	if rel, err := filepath.Rel(backing, mp); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return nil, fmt.Errorf("the mount point %s is inside the backing directory %s", mp, backing)
	}
	if err := os.MkdirAll(mp, 0o755); err != nil {
		return nil, err
	}
	inner, err := fs.NewLoopbackRoot(backing)
	if err != nil {
		return nil, err
	}
	l, err := newLayer(backing, cfg.names)
	if err != nil {
		return nil, err
	}
	root := &node{LoopbackNode: inner.(*fs.LoopbackNode), l: l}

	// Zero timeouts: the kernel asks the layer for every name and every attribute, so after a
	// drop it never serves a name or a size from before the drop.
	zero := time.Duration(0)
	opts := &fs.Options{
		EntryTimeout:    &zero,
		AttrTimeout:     &zero,
		NegativeTimeout: &zero,
		MountOptions: fuse.MountOptions{
			// There is no fusermount here; as root, go-fuse calls mount(2) itself.
			DirectMountStrict: true,
			AllowOther:        true,
			Options:           []string{"default_permissions"},
			FsName:            l.backing,
			Name:              "plumb-power-loss",
			// Writeback caching would let the kernel hold written data the layer never
			// saw; passthrough would send reads and writes straight to the backing file.
			// Either would hide writes from the layer, so both are off.
			DisabledCapabilities: fuse.CAP_WRITEBACK_CACHE | fuse.CAP_PASSTHROUGH,
			// With extended attributes the kernel asks for security.capability before every
			// write, one more round trip each; no broker uses them.
			DisableXAttrs: true,
			Debug:         cfg.debug,
		},
	}
	server, err := fs.Mount(mp, root, opts)
	if err != nil {
		l.close()
		return nil, fmt.Errorf("%w (mount of %s refused: %v)", errNoFUSE, mp, err)
	}
	return &mount{l: l, server: server, mountpoint: mp}, nil
}

// unmount makes everything durable, as a clean unmount does, and unmounts. It fails, leaving
// the layer mounted, while a program still holds a file open on the mount.
func (m *mount) unmount() error {
	if err := m.l.syncAll(); err != nil {
		return err
	}
	if err := m.server.Unmount(); err != nil {
		return fmt.Errorf("unmount %s: %v", m.mountpoint, err)
	}
	// Nothing reaches the layer any more; a write that came between the sync and the unmount
	// is made durable now.
	if err := m.l.syncAll(); err != nil {
		log.Printf("after unmount: %v", err)
	}
	return m.l.close()
}

// fuseWorks mounts a throwaway layer and unmounts it: nil when FUSE works here.
func fuseWorks() error {
	dir, err := os.MkdirTemp("", "plumb-power-loss-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	backing, mp := filepath.Join(dir, "backing"), filepath.Join(dir, "mnt")
	if err := os.Mkdir(backing, 0o755); err != nil {
		return err
	}
	m, err := mountLayer(mountConfig{backing: backing, mountpoint: mp})
	if err != nil {
		return err
	}
	if _, err := os.ReadDir(mp); err != nil {
		m.unmount()
		return fmt.Errorf("%w (reading the mount failed: %v)", errNoFUSE, err)
	}
	return m.unmount()
}
