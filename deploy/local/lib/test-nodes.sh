#!/usr/bin/env bash
# Tests deploy/local/lib/nodes.sh without a broker: its "nodes" are sleep processes (named by
# exec -a, so that node_owns_pid can tell them from others), its cgroup tool and power-loss layer
# stand-ins that create nothing on the host. Checks node.env, PIDs (stale and recycled ones),
# status and its exit codes, stop (and SIGKILL after the timeout), start-node's thaw and pending
# marks, the one-line failure naming the node and its log, the layer's bookkeeping, start's options
# and the ports. Seconds; run by bin/test-all.
set -euo pipefail

# shellcheck source=testing.sh
source "$(dirname "${BASH_SOURCE[0]}")/testing.sh" nodes
LAUNCHED=()
test_cleanup() {
  local pid
  for pid in "${LAUNCHED[@]+"${LAUNCHED[@]}"}"; do kill -KILL "$pid" 2>/dev/null || true; done
}

# A cgroup tool that joins nothing: run execs the command, path prints a directory that names the
# cgroup (and the PID it was asked about).
cat >"$WORK/cgroup-tool" <<'EOF'
#!/usr/bin/env bash
case "$1" in
  run) shift 2; exec "$@" ;;
  path) echo "/cgroups/$2${3:+ (pid $3)}" ;;
esac
EOF
# A power-loss layer that mounts nothing: its control socket is a socket nothing listens on, its
# backing data a directory, and status answers while the "mount" lasts.
cat >"$WORK/layer-tool" <<'EOF'
#!/usr/bin/env bash
command=$1
shift
while (($#)); do
  case "$1" in
    --control) control=$2 ;;
    --backing) backing=$2 ;;
  esac
  shift 2
done
echo "$command ${control:-}" >>"$(dirname "$0")/layer-calls"
case "$command" in
  check) exit 0 ;;
  mount) mkdir -p "$backing" && python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$control" ;;
  status) [[ -e "$control" ]] && echo "unsynced_bytes=42" ;;
  sync) [[ -e "$control" ]] ;;
  unmount) rm -f "$control" ;;
esac
EOF
chmod +x "$WORK/cgroup-tool" "$WORK/layer-tool"

export PLUMB_STATE_DIR="$WORK/state" NODES_CGROUP_TOOL="$WORK/cgroup-tool"
# shellcheck source=nodes.sh
source "$HERE/nodes.sh"
nodes_init fake
# The layer's stand-in.
power_loss_tool() { echo "$WORK/layer-tool"; }
power_loss_socket() { echo "$1/power-loss.sock"; }
power_loss_mount() { "$WORK/layer-tool" mount --backing "$1/durable" --control "$(power_loss_socket "$1")"; }
power_loss_unmount() { [[ ! -e "$(power_loss_socket "$1")" ]] || "$WORK/layer-tool" unmount --control "$(power_loss_socket "$1")"; }
power_loss_ensure() { [[ -e "$(power_loss_socket "$1")" ]] || power_loss_mount "$1" "$2"; }
# Nothing is mounted: the socket alone says a layer is there.
mountpoint() { return 1; }

die() {
  echo "fake.sh: $*" >&2
  exit 1
}
node_owns_pid() { [[ "$(nodes_cmdline "$2")" == "fake-node-$1 "* ]]; }
status_lines() {
  echo "fake: $1 of $2 node(s) running"
  local node
  for node in $(nodes_list); do echo "  node $node: $(nodes_pid "$node" || echo stopped)"; done
}
NODES_TITLE="Fake node"
NODES_NOT_RUNNING="fake not running"
NODES_MSG_LATE="{name} did not start within 1s{see}"

# Node N's state, as a broker script writes it at start.
make_node() {
  mkdir -p "$(nodes_dir "$1")"
  nodes_write_env "$1" <<EOF
NODE=$1
PID=
CGROUP=$(nodes_cgroup_path "$1")
PORTS=$((40000 + $1))
DATA_DIR=$(nodes_dir "$1")/data
LOG=$(nodes_dir "$1")/fake.log
CONSOLE=$(nodes_dir "$1")/console.out
EOF
}

# Launches node N: a sleep named fake-node-N, or with "stubborn" one that ignores SIGTERM.
launch() {
  local trap=""
  [[ "${2:-}" != stubborn ]] || trap="trap '' TERM; "
  # In a subshell, as a script's start runs apart from its stop: the node is no job of this shell.
  (nodes_launch "$1" "$(nodes_dir "$1")/console.out" bash -c "${trap}exec -a fake-node-$1 sleep 300")
  LAUNCHED+=("$(nodes_get "$1" PID)")
  # Until bash has exec'd sleep, the process is not yet the node's.
  for _ in $(seq 1 100); do nodes_pid "$1" >/dev/null && return 0; sleep 0.02; done
  fail "node $1 (PID $(nodes_get "$1" PID)) never ran as fake-node-$1"
}

# --- node.env --------------------------------------------------------------------------------

[[ "$NODES_DIR" == "$WORK/state/fake/nodes" && "$NODES_STATE" == "$WORK/state/fake" ]] ||
  fail "nodes_init fake put the nodes in $NODES_DIR (state $NODES_STATE)"
[[ "$(nodes_cgroup 2)" == plumb-fake-2 ]] || fail "node 2's cgroup is $(nodes_cgroup 2)"
# Sourced with a broker's name, the library calls nodes_init itself; a setting is
# PLUMB_<PREFIX>_<NAME> where the environment has it (not empty), else the default.
named="$(PLUMB_OTHER_PORT=7 PLUMB_OTHER_HOST='' bash -c 'source "$1" other &&
  plumb_settings OTHER PORT=1 HOST=h DIR="$2" && echo "$NODES_DIR $NODES_NOT_RUNNING $PORT $HOST $DIR"' \
  - "$HERE/nodes.sh" "$WORK/a b")"
[[ "$named" == "$WORK/state/other/nodes other not running 7 h $WORK/a b" ]] ||
  fail "sourced with the name other, then plumb_settings: $named"
for node in 10 2 1; do make_node "$node"; done
[[ "$(nodes_list | xargs)" == "1 2 10" ]] || fail "nodes_list printed '$(nodes_list | xargs)', not '1 2 10'"
[[ "$(nodes_get 2 PORTS)" == 40002 && -z "$(nodes_get 2 PID)" && -z "$(nodes_get 7 PORTS)" ]] ||
  fail "nodes_get: PORTS '$(nodes_get 2 PORTS)', PID '$(nodes_get 2 PID)', a missing node '$(nodes_get 7 PORTS)'"
nodes_set 2 PID 123 EXTRA "a b=c" PORTS 7
[[ "$(cat "$(nodes_env_file 2)")" == "NODE=2
PID=123
CGROUP=/cgroups/plumb-fake-2
PORTS=7
DATA_DIR=$WORK/state/fake/nodes/2/data
LOG=$WORK/state/fake/nodes/2/fake.log
CONSOLE=$WORK/state/fake/nodes/2/console.out
EXTRA=a b=c" ]] || fail "nodes_set left node.env as: $(cat "$(nodes_env_file 2)")"
[[ ! -e "$(nodes_env_file 2).tmp" ]] || fail "nodes_set left its temporary file"
rm -rf "$(nodes_dir 10)"
make_node 2
echo "nodes: ok: node.env written, read, changed in place; nodes in numeric order"

# --- PIDs, status, stop ------------------------------------------------------------------------

nodes_status >"$WORK/out" && fail "status with no node running exited 0" || rc=$?
[[ $rc -eq 3 && "$(cat "$WORK/out")" == "fake not running" ]] || fail "status of none: exit $rc, '$(cat "$WORK/out")'"
launch 1
launch 2
pid1="$(nodes_get 1 PID)"
[[ "$(nodes_pid 1)" == "$pid1" && "$(nodes_get 1 CGROUP)" == "/cgroups/plumb-fake-1 (pid $pid1)" ]] ||
  fail "node 1: PID '$(nodes_get 1 PID)' CGROUP '$(nodes_get 1 CGROUP)' after launch"
nodes_status >"$WORK/out" || fail "status with every node running exited $?"
[[ "$(head -n 1 "$WORK/out")" == "fake: 2 of 2 node(s) running" ]] || fail "status printed: $(cat "$WORK/out")"
# A PID recorded for a process that is gone, and one the system gave to another process since.
(exit 0) &
dead=$!
wait "$dead"
nodes_set 2 PID "$dead"
nodes_pid 2 >/dev/null && fail "the PID of a process that is gone counts as node 2's"
nodes_set 2 PID $$
nodes_pid 2 >/dev/null && fail "the PID of another process ($$, this test) counts as node 2's"
nodes_status >"$WORK/out" && fail "status with 1 of 2 running exited 0" || rc=$?
[[ $rc -eq 1 ]] && grep -qx "fake: 1 of 2 node(s) running" "$WORK/out" && grep -qx "  node 2: stopped" "$WORK/out" ||
  fail "status of 1 of 2: exit $rc, $(cat "$WORK/out")"
echo "nodes: ok: PIDs checked against the process (stale and recycled ones refused), status exits 0, 1, 3"

nodes_stop_all >"$WORK/out" 2>&1
[[ "$(cat "$WORK/out")" == "Fake node 1 stopped (PID $pid1)" ]] || fail "stop printed: $(cat "$WORK/out")"
nodes_alive "$pid1" && fail "node 1 (PID $pid1) still runs after stop"
[[ -z "$(nodes_get 1 PID)" && -z "$(nodes_get 2 PID)" ]] || fail "stop left PIDs '$(nodes_get 1 PID)' '$(nodes_get 2 PID)'"
nodes_stop_all >"$WORK/out" 2>&1
[[ "$(cat "$WORK/out")" == "fake not running" ]] || fail "stop with none running printed: $(cat "$WORK/out")"
launch 1 stubborn
pid1="$(nodes_get 1 PID)"
nodes_stop 1 1 >"$WORK/out" 2>"$WORK/err"
[[ "$(cat "$WORK/err")" == "Fake node 1 (PID $pid1) did not stop within 1s: killing it" &&
  "$(cat "$WORK/out")" == "Fake node 1 stopped (PID $pid1)" ]] ||
  fail "a node that ignores SIGTERM, stopped: '$(cat "$WORK/out")', '$(cat "$WORK/err")'"
nodes_alive "$pid1" && fail "node 1 (PID $pid1) survived its SIGKILL"
launch 1 stubborn
launch 2 stubborn
NODES_MSG_KILLED="fake pid(s) {pids} did not stop in {timeout}s" nodes_stop_pids 1 "1:$(nodes_get 1 PID)" "2:$(nodes_get 2 PID)" 2>"$WORK/err"
[[ "$(cat "$WORK/err")" == "fake pid(s) $(nodes_get 1 PID) $(nodes_get 2 PID) did not stop in 1s" ]] ||
  fail "{pids}: $(cat "$WORK/err")"
echo "nodes: ok: stop all at once, PIDs cleared, SIGKILL with one line after the timeout"

# --- start-node: thaw, pending -----------------------------------------------------------------

launch 1
pid1="$(nodes_get 1 PID)"
nodes_thaw "$pid1" && fail "nodes_thaw continued a process that was not stopped"
kill -STOP "$pid1"
for _ in $(seq 1 50); do [[ "$(awk '{ print $3 }' "/proc/$pid1/stat")" == T ]] && break; sleep 0.02; done
nodes_thaw "$pid1" || fail "nodes_thaw did not see that PID $pid1 was stopped"
for _ in $(seq 1 50); do [[ "$(awk '{ print $3 }' "/proc/$pid1/stat")" != T ]] && break; sleep 0.02; done
[[ "$(awk '{ print $3 }' "/proc/$pid1/stat")" != T ]] || fail "PID $pid1 still stopped after nodes_thaw"
touch "$(nodes_pending_file 2)"
[[ "$(nodes_pending | xargs)" == 2 ]] || fail "nodes_pending printed '$(nodes_pending | xargs)'"
nodes_clear_pending
[[ -z "$(nodes_pending)" ]] || fail "nodes_clear_pending left $(nodes_pending)"
echo "nodes: ok: a frozen node thawed, pending marks set and cleared"

# --- the one-line failure naming the node and its log -------------------------------------------

ready() { [[ -f "$WORK/ready-${1%%:*}" ]]; }
touch "$WORK/ready-1"
nodes_await $((SECONDS + 5)) ready 1 || fail "nodes_await of a ready node failed: $NODES_FAILURE"
echo "something went wrong" >"$(nodes_dir 1)/fake.log"
nodes_await $((SECONDS + 1)) ready 1 2 && fail "nodes_await of a stopped node 2 succeeded"
[[ "$NODES_FAILED" == 2 && "$NODES_FAILED_WHY" == exited &&
  "$NODES_FAILURE" == "node 2 exited during startup (log: $(nodes_dir 2)/console.out)" ]] ||
  fail "node 2 gone: $NODES_FAILED $NODES_FAILED_WHY '$NODES_FAILURE' (an empty LOG names the CONSOLE)"
launch 2
nodes_await $((SECONDS + 1)) ready 1 2:offset && fail "nodes_await of a node never ready succeeded"
[[ "$NODES_FAILED" == 2 && "$NODES_FAILED_WHY" == late &&
  "$NODES_FAILURE" == "node 2 did not start within 1s (log: $(nodes_dir 2)/console.out)" ]] ||
  fail "node 2 late: $NODES_FAILED $NODES_FAILED_WHY '$NODES_FAILURE'"
nodes_await $((SECONDS + 1)) ready 1 || true
# NODES_AWAIT_POLL spaces the rounds of a costly check: 2 s at 0.5 s are at most 5 (not ~20).
calls=0
never() { calls=$((calls + 1)); return 1; }
NODES_AWAIT_POLL=0.5 nodes_await $((SECONDS + 2)) never 1 && fail "nodes_await of a check that never passes succeeded"
((calls >= 2 && calls <= 5)) || fail "nodes_await with NODES_AWAIT_POLL=0.5 checked $calls times in 2 s"
kill -KILL "$(nodes_get 1 PID)"
sleep 0.1
NODES_SEE="; see {log}" nodes_await $((SECONDS + 1)) ready 1 && fail "nodes_await of a killed node 1 succeeded"
[[ "$NODES_FAILURE" == "node 1 exited during startup; see $(nodes_dir 1)/fake.log" ]] ||
  fail "node 1 killed: '$NODES_FAILURE'"
# As a script uses it: one line on stderr, naming the node and its log, and exit 1.
if (nodes_await $((SECONDS + 1)) ready 1 || die "$NODES_FAILURE") >"$WORK/out" 2>"$WORK/err"; then
  fail "a failed start exited 0"
fi
[[ ! -s "$WORK/out" && "$(cat "$WORK/err")" == "fake.sh: node 1 exited during startup (log: $(nodes_dir 1)/fake.log)" ]] ||
  fail "a failed start printed '$(cat "$WORK/out")' and '$(cat "$WORK/err")'"
nodes_stop 1 2 >/dev/null
echo "nodes: ok: a node that exits or is late fails in one line naming it and its log; rounds NODES_AWAIT_POLL apart"

# A start line followed by far more than a pipe holds (a broker's burst after it): still found,
# under pipefail, every time; not found when it lies before the offset.
log="$WORK/started.log"
{ echo "booting"; echo "Kafka Server started"; head -c 1000000 /dev/zero | tr '\0' 'x' | fold -w 100; } >"$log"
for _ in 1 2 3 4 5; do
  nodes_logged_since "$log" 0 'Kafka Server started' || fail "a start line followed by 1 MB was not found"
done
nodes_logged_since "$log" 40 'Kafka Server started' && fail "a start line before the offset was found"
nodes_logged_since "$WORK/no-such.log" 0 'started' && fail "a missing log was taken for a start"
echo "nodes: ok: a log line after an offset is found however much follows it (no pipe to SIGPIPE)"

# --- the power-loss layer ----------------------------------------------------------------------

rm -rf "$NODES_DIR"
mkdir -p "$(nodes_dir 1)" "$(nodes_dir 2)"
nodes_layer_mount 1 "$(nodes_dir 1)/data" || fail "mounting node 1's layer: $NODES_FAILURE"
make_node 1
make_node 2
nodes_layer_mount 2 "$(nodes_dir 2)/data" || fail "mounting node 2's layer: $NODES_FAILURE"
for node in 1 2; do
  [[ "$(tail -n 3 "$(nodes_env_file "$node")")" == "POWER_LOSS_TOOL=$WORK/layer-tool
POWER_LOSS_CONTROL=$(nodes_dir "$node")/power-loss.sock
POWER_LOSS_BACKING=$(nodes_dir "$node")/durable" ]] ||
    fail "node $node's node.env does not end with the layer's lines: $(cat "$(nodes_env_file "$node")")"
  nodes_layer_on "$node" || fail "node $node's layer is not on"
done
[[ "$(nodes_layer_state 1)" == "power-loss layer mounted, 42 bytes unsynced" ]] ||
  fail "layer state: $(nodes_layer_state 1)"
nodes_layer_sync 1 2 || fail "syncing the layers: $NODES_FAILURE"
rm "$(nodes_dir 2)/power-loss.sock"
[[ "$(nodes_layer_state 2)" == "power-loss layer not answering" ]] || fail "layer state of a dead layer: $(nodes_layer_state 2)"
nodes_layer_sync 1 2 && fail "syncing a dead layer succeeded"
[[ "$NODES_FAILURE" == "node 2: syncing the power-loss layer failed (log: $(nodes_dir 2)/power-loss.log)" ]] ||
  fail "a failed sync: '$NODES_FAILURE'"
nodes_layer_ensure 2 || fail "mounting node 2's dead layer again: $NODES_FAILURE"
[[ -e "$(nodes_dir 2)/power-loss.sock" ]] || fail "nodes_layer_ensure did not mount node 2's layer again"
nodes_layer_unmount_all >"$WORK/out"
[[ "$(cat "$WORK/out")" == "Fake node 1: power-loss layer unmounted, its data durable in $(nodes_dir 1)/durable
Fake node 2: power-loss layer unmounted, its data durable in $(nodes_dir 2)/durable" ]] ||
  fail "unmounting printed: $(cat "$WORK/out")"
[[ -z "$(nodes_layer_unmount_all)" ]] || fail "a second unmount printed something"
power_loss_check() { echo "building..."; echo "FUSE: /dev/fuse is missing"; return 1; }
if (nodes_require_fuse) 2>"$WORK/err"; then fail "nodes_require_fuse passed without FUSE"; fi
[[ "$(cat "$WORK/err")" == "fake.sh: --power-loss-layer: FUSE: /dev/fuse is missing" ]] ||
  fail "no FUSE: $(cat "$WORK/err")"
touch "$WORK/state/fake/extra"
nodes_wipe "$WORK/state/fake/extra"
[[ ! -e "$NODES_DIR" && ! -e "$WORK/state/fake/extra" ]] || fail "nodes_wipe left $(ls "$WORK/state/fake")"
echo "nodes: ok: the layer's lines in node.env, its state, sync, remount, unmount, and no FUSE in one line"

# --- commands: start's options, usage, ports ---------------------------------------------------

start_usage() { echo "usage error at '$1'"; exit 1; }
options() { (nodes_start_options "$@" && echo "$NODES_COUNT $NODES_LAYER ${NODES_OPTION[sync]-unset}"); }
NODES_START_VALUES="sync"
[[ "$(options)" == "1 0 unset" ]] || fail "no options: $(options)"
[[ "$(options --nodes 3 --power-loss-layer --sync always)" == "3 1 always" ]] ||
  fail "--nodes 3 --power-loss-layer --sync always: $(options --nodes 3 --power-loss-layer --sync always)"
[[ "$(options --nodes=5 --sync=default)" == "5 0 default" ]] || fail "--nodes=5 --sync=default: $(options --nodes=5 --sync=default)"
[[ "$(options --nodes)" == " 0 unset" ]] || fail "--nodes without a value: $(options --nodes)"
[[ "$(NODES_START_STRICT=1 options --nodes)" == "usage error at '--nodes'" ]] ||
  fail "--nodes without a value, strict: $(NODES_START_STRICT=1 options --nodes)"
[[ "$(options --nodes 3 --bogus)" == "usage error at '--bogus'" ]] || fail "--bogus: $(options --nodes 3 --bogus)"
[[ "$(options 3)" == "usage error at '3'" ]] || fail "a bare 3: $(options 3)"
NODES_START_VALUES=""
[[ "$(options --sync always)" == "usage error at '--sync'" ]] || fail "--sync where the script has none: $(options --sync always)"
(nodes_main "start | stop" bogus) 2>"$WORK/err" && fail "an unknown command exited 0" || rc=$?
[[ $rc -eq 2 && "$(cat "$WORK/err")" == "usage: $0 start | stop" ]] || fail "an unknown command: exit $rc, $(cat "$WORK/err")"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
nodes_port_open 127.0.0.1 "$port" && fail "port $port open with nothing listening"
# A tiny listener, no job of this shell (its end in test_cleanup would be reported).
(python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("up", flush=True); time.sleep(30)' "$port" >"$WORK/listener" &
  echo $! >"$WORK/listener.pid")
LAUNCHED+=("$(cat "$WORK/listener.pid")")
for _ in $(seq 1 100); do [[ -s "$WORK/listener" ]] && break; sleep 0.05; done
nodes_port_open 127.0.0.1 "$port" || fail "port $port not open with a listener"
nodes_port_taken "$port" || fail "port $port not taken with a listener"
make_node 1
nodes_set 1 PORTS "1,$port"
[[ "$(nodes_taken_port 1)" == "$port" ]] || fail "nodes_taken_port printed '$(nodes_taken_port 1)', not $port"
echo "nodes: ok: start's options, the usage line (exit 2), open and taken ports"
