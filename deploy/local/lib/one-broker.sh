# Sourced, from the repository root, by the deploy/local scripts that run one broker at a time on
# this host, each from a clean start: comparisons.sh, fault-proof.sh, message-sizes.sh,
# replication-cost.sh and power-loss-table.sh. $running names the broker a script started last
# (deploy/local/$running.sh); it is stopped when the script exits, however it ends.
running=""

# Stops whatever of broker $1 runs and waits until the disk has written back what earlier runs
# left in the page cache; $1 is then the running broker, which the caller starts.
before_start() {
  deploy/local/"$1".sh stop >/dev/null 2>&1 || true
  sync
  running="$1"
}

# Stops broker $1 (by default the running one, if any); none runs then.
stop_running() {
  local broker="${1:-$running}"
  if [ -n "$broker" ]; then
    deploy/local/"$broker".sh stop >/dev/null 2>&1 || true
  fi
  running=""
}
trap stop_running EXIT

# Runs bin/benchmark with the options after $1, its result to $out/$1.json and its console to
# $out/$1.log, after a line with the host's load average.
measure() {
  local name="$1"
  shift
  echo "   $name (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  bin/benchmark "$@" -o "$out/$name.json" >"$out/$name.log" 2>&1 ||
    echo "   $name ended with status $?: see $out/$name.log"
}
