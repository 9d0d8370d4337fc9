#!/usr/bin/env bash
# Starts a cluster node's process in a cgroup of its own, so that a fault can cut that one process
# off the network (nftables matches a socket's cgroup) while it keeps running.
#
#   deploy/local/node-cgroup.sh run NAME COMMAND...   joins cgroup NAME, then execs COMMAND (same
#                                                     PID, so $! of a background start is COMMAND's)
#   deploy/local/node-cgroup.sh path NAME             prints the cgroup's directory, or nothing
#                                                     where this machine has no writable cgroup v2
#
# The scripts record the directory as CGROUP=... in the node's node.env. Where cgroup v2 is missing
# or read-only, `run` execs COMMAND unchanged and CGROUP stays empty: the node runs as before and
# only the isolate and partition faults are refused for it.
set -euo pipefail

cgroup2_root() {
  awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts 2>/dev/null
}

cgroup_dir() {
  local root
  root="$(cgroup2_root)"
  [[ -n "$root" && -w "$root" ]] || return 0
  mkdir -p "$root/$1" 2>/dev/null && [[ -w "$root/$1/cgroup.procs" ]] && echo "$root/$1"
  return 0
}

case "${1:-}" in
  run)
    name="${2:?usage: $0 run NAME COMMAND...}"
    shift 2
    dir="$(cgroup_dir "$name")"
    if [[ -n "$dir" ]]; then
      echo $$ >"$dir/cgroup.procs" 2>/dev/null || true
    fi
    exec "$@"
    ;;
  path)
    cgroup_dir "${2:?usage: $0 path NAME}"
    ;;
  *)
    echo "usage: $0 run NAME COMMAND... | path NAME" >&2
    exit 2
    ;;
esac
