#!/usr/bin/env bash
# Starts a cluster node's process in a cgroup of its own, so that a fault can cut that one process
# off the network (nftables matches a socket's cgroup) while it keeps running.
#
#   deploy/local/node-cgroup.sh run NAME COMMAND...   joins cgroup NAME, then execs COMMAND (same
#                                                     PID, so $! of a background start is COMMAND's)
#   deploy/local/node-cgroup.sh path NAME             prints the cgroup's directory, or nothing
#                                                     where this machine has no writable cgroup v2
#   deploy/local/node-cgroup.sh path NAME PID         the same, once PID has joined it (waits up to
#                                                     2 s for a process just started with `run`);
#                                                     if it did not, prints nothing and one warning
#                                                     line on stderr
#
# The scripts record the directory as CGROUP=... in the node's node.env, asking with the node's PID
# so that what is recorded is where the process really runs. Where cgroup v2 is missing or
# read-only, or the join fails, `run` says so in one line on stderr and execs COMMAND unchanged,
# and CGROUP stays empty: the node runs as before and only the isolate and partition faults are
# refused for it, before any load (a recorded cgroup the process is not in would make every cut
# match nothing).
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
    if [[ -n "$dir" ]] && ! echo $$ >"$dir/cgroup.procs" 2>/dev/null; then
      echo "node-cgroup.sh: warning: could not move PID $$ into $dir; $name runs outside it" >&2
    fi
    exec "$@"
    ;;
  path)
    name="${2:?usage: $0 path NAME [PID]}"
    dir="$(cgroup_dir "$name")"
    pid="${3:-}"
    if [[ -z "$dir" || -z "$pid" ]]; then
      [[ -n "$dir" ]] && echo "$dir"
      exit 0
    fi
    want="/${dir#"$(cgroup2_root)"/}"
    for _ in $(seq 1 40); do
      if [[ "$(sed -n 's/^0:://p' "/proc/$pid/cgroup" 2>/dev/null)" == "$want" ]]; then
        echo "$dir"
        exit 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    echo "node-cgroup.sh: warning: PID $pid is not in cgroup $dir; CGROUP left empty, so isolate and partition faults will be refused for $name" >&2
    ;;
  *)
    echo "usage: $0 run NAME COMMAND... | path NAME" >&2
    exit 2
    ;;
esac
