# Sourced by deploy/local/<broker>.sh: the bookkeeping of a local cluster's nodes that the five
# scripts share, so that each keeps only what is its broker's (configuration, joining, readiness).
#
# Node N (1, 2, ... or a name such as broker) lives in NODES_DIR/N, where node.env holds lines
# KEY=value for other tools (fault injection, resource sampling): PID (empty while stopped), CGROUP,
# PORTS, DATA_DIR, LOG and what else the broker records. Its process runs in a cgroup of its own,
# plumb-<broker>-N (deploy/local/node-cgroup.sh). With the power-loss layer (deploy/power-loss/
# layer.sh, sourced here too) the node's directory also holds power-loss.env, the layer's lines,
# and node.env ends with them.
#
# A script sources it with its broker's name (source lib/nodes.sh kafka), which calls nodes_init
# BROKER: that sets NODES_REPO, NODES_LOCAL_DIR (deploy/local), NODES_STATE (<PLUMB_STATE_DIR,
# default <repo>/.plumb>/BROKER) and NODES_DIR (NODES_STATE/nodes). Sourced without a name (the
# tests), it leaves nodes_init to the caller: bash then hands the file the caller's own arguments,
# so a script that has arguments always names its broker. The script reads its PLUMB_<BROKER>_*
# settings with plumb_settings (lib/settings.sh, which this file sources), and defines
#   node_owns_pid N PID KEY  true when process PID (node.env's KEY) is node N's, so that a PID the
#                            system gave to another process since is never taken for the node
# and, where it dispatches with nodes_main, start, start_node and stop_node, and status_lines
# WHOLE TOTAL (the lines of status once some node runs). It may redefine the defaults below:
#   nodes_list               the nodes with a node.env, in order (default: numbers, ascending)
#   nodes_up N               some process of node N runs (default: its PID)
#   nodes_whole N            everything of node N runs (default: nodes_up)
#   stop_nodes N...          stops the nodes given (default: nodes_stop NODES_STOP_TIMEOUT)
#   layer_data_dir N         what node N's power-loss layer is mounted over (default: DATA_DIR)
#   die MESSAGE              prints NODES_DIE_PREFIX and MESSAGE on stderr, and exits 1
#
# The lines printed for a node fill in a template: {name} is "NODES_NAME N" (default "node 2"),
# {title} "NODES_TITLE N" (default the same), {see} NODES_SEE (default " (log: {log})"), and each
# {KEY} a value given with it ({log}, {pid}, ...). A script sets the wording it has always printed:
#   NODES_NOT_RUNNING        status and stop when no node runs
#   NODES_MSG_EXITED         nodes_await: a node's process exited before it was ready
#   NODES_MSG_LATE           nodes_await: the deadline passed
#   NODES_MSG_STOPPED        nodes_stop: a node stopped ({pid})
#   NODES_MSG_KILLED         nodes_stop_pids: a process still running at the timeout, SIGKILLed
#                            ({pid}, {timeout}; with {pids} one line for all of them)

# The NODES_* variables set here are read by the scripts that source this file.
# shellcheck shell=bash disable=SC2034
# shellcheck source=../../power-loss/layer.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../../power-loss" && pwd)/layer.sh"
# shellcheck source=settings.sh
source "$(dirname "${BASH_SOURCE[0]}")/settings.sh"

nodes_init() {
  NODES_LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  NODES_REPO="$(cd "$NODES_LOCAL_DIR/../.." && pwd)"
  NODES_STATE="${PLUMB_STATE_DIR:-$NODES_REPO/.plumb}/$1"
  NODES_DIR="$NODES_STATE/nodes"
  NODES_CGROUP="plumb-$1"
  # The tests put a stand-in here, so that they create no cgroup.
  NODES_CGROUP_TOOL="${NODES_CGROUP_TOOL:-$NODES_LOCAL_DIR/node-cgroup.sh}"
  NODES_NAME=node
  NODES_TITLE=""
  NODES_SEE=' (log: {log})'
  NODES_NOT_RUNNING="$1 not running"
  NODES_MSG_EXITED='{name} exited during startup{see}'
  NODES_MSG_LATE='{name} did not start in time{see}'
  NODES_MSG_STOPPED='{title} stopped (PID {pid})'
  NODES_MSG_KILLED='{title} (PID {pid}) did not stop within {timeout}s: killing it'
  NODES_STOP_TIMEOUT=30
  NODES_DIE_PREFIX=""
}

die() {
  echo "$NODES_DIE_PREFIX$*" >&2
  exit 1
}

# nodes_line TEMPLATE N [KEY=VALUE...]: the template filled in (see the top).
nodes_line() {
  local line="$1" node="$2" pair pattern
  shift 2
  line="${line//"{see}"/"$NODES_SEE"}"
  line="${line//"{name}"/"$NODES_NAME $node"}"
  line="${line//"{title}"/"${NODES_TITLE:-$NODES_NAME} $node"}"
  for pair in "$@"; do
    pattern="{${pair%%=*}}"
    line="${line//"$pattern"/"${pair#*=}"}"
  done
  echo "$line"
}

# --- node.env ----------------------------------------------------------------------------------

nodes_dir() { echo "$NODES_DIR/$1"; }
nodes_env_file() { echo "$NODES_DIR/$1/node.env"; }

# nodes_get N KEY: the value of KEY in node N's node.env (empty when it has none, or no node.env).
nodes_get() {
  local file
  file="$(nodes_env_file "$1")"
  [[ -f "$file" ]] || return 0
  sed -n "s/^$2=//p" "$file" | head -n 1
}

# nodes_set N KEY VALUE [KEY VALUE...]: replaces each KEY's line (or adds it) in one rename, so
# that a reader never sees half a file.
nodes_set() {
  local file
  file="$(nodes_env_file "$1")"
  shift
  awk 'BEGIN { for (i = 1; i < ARGC; i += 2) { value[ARGV[i]] = ARGV[i + 1]; order[++n] = ARGV[i] }
               ARGC = 1 }
       { key = substr($0, 1, index($0, "=") - 1) }
       key in value { print key "=" value[key]; done[key] = 1; next }
       { print }
       END { for (i = 1; i <= n; i++) if (!(order[i] in done)) print order[i] "=" value[order[i]] }' \
    "$@" <"$file" >"$file.tmp"
  mv "$file.tmp" "$file"
}

# nodes_write_env N: node N's node.env from stdin, then its power-loss layer's lines if it has one;
# written whole and renamed.
nodes_write_env() {
  local file layer
  file="$(nodes_env_file "$1")"
  layer="$(nodes_dir "$1")/power-loss.env"
  {
    cat
    if [[ -f "$layer" ]]; then cat "$layer"; fi
  } >"$file.tmp"
  mv "$file.tmp" "$file"
}

# The nodes that have a node.env, in order; a script whose nodes have names redefines it.
nodes_list() {
  local env
  for env in "$NODES_DIR"/*/node.env; do
    if [[ -f "$env" ]]; then basename "$(dirname "$env")"; fi
  done | sort -n
}

# --- processes ---------------------------------------------------------------------------------

# The command line of process $1, its arguments separated by spaces (empty once it is gone).
nodes_cmdline() {
  tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null
}

# nodes_pid N [KEY]: the PID node.env records (KEY, default PID) if that process runs and is
# node N's (node_owns_pid); fails otherwise.
nodes_pid() {
  local key="${2:-PID}" pid
  pid="$(nodes_get "$1" "$key")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && node_owns_pid "$1" "$pid" "$key" ||
    return 1
  echo "$pid"
}

nodes_up() { nodes_pid "$1" >/dev/null; }
nodes_whole() { nodes_up "$1"; }

# The nodes of which something runs, one a line.
nodes_running() {
  local node
  for node in $(nodes_list); do
    if nodes_up "$node"; then echo "$node"; fi
  done
}

# True while process $1 runs (a zombie, dead but not yet reaped, does not).
nodes_alive() {
  local state
  state="$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" && [[ -n "$state" && "$state" != [ZX] ]]
}

# Continues process $1 if a fault left it stopped (SIGSTOP); fails when it was not stopped.
nodes_thaw() {
  [[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" == T ]] || return 1
  kill -CONT "$1" 2>/dev/null || true
}

# The cgroup node N runs in, and its directory (empty where this machine has none to give; with a
# PID, only once that process is in it).
nodes_cgroup() { echo "$NODES_CGROUP-$1"; }
nodes_cgroup_path() { "$NODES_CGROUP_TOOL" path "$(nodes_cgroup "$1")" "${2:-}"; }

# nodes_record_pid N PID: records PID in node N's node.env (key NODES_PID_KEY, default PID) and,
# for PID, the cgroup the process is in: a failed join leaves CGROUP empty (cuts refused up front).
nodes_record_pid() {
  local key="${NODES_PID_KEY:-PID}"
  if [[ "$key" == PID ]]; then
    nodes_set "$1" PID "$2" CGROUP "$(nodes_cgroup_path "$1" "$2")"
  else
    nodes_set "$1" "$key" "$2"
  fi
}

# nodes_launch N OUTPUT COMMAND...: starts COMMAND for node N in the background, in the node's
# cgroup, its output appended to OUTPUT, and records its PID (nodes_record_pid; also NODES_PID).
# setsid: the process must not die with the terminal or job that started it. A background job is
# no process-group leader, so setsid execs in place, and node-cgroup.sh execs COMMAND once it has
# joined the cgroup: $! is COMMAND's own PID.
nodes_launch() {
  local node="$1" output="$2"
  shift 2
  setsid "$NODES_CGROUP_TOOL" run "$(nodes_cgroup "$node")" "$@" </dev/null >>"$output" 2>&1 &
  NODES_PID=$!
  nodes_record_pid "$node" "$NODES_PID"
}

# nodes_stop_pids TIMEOUT LABEL:PID...: SIGTERM to every process at once (and SIGCONT, since one
# frozen by a fault acts on the SIGTERM only once it runs again), then waits for all of them: one
# still running after TIMEOUT seconds is SIGKILLed, with NODES_MSG_KILLED on stderr.
nodes_stop_pids() {
  local timeout="$1" entry alive
  shift
  for entry in "$@"; do
    kill -TERM "${entry##*:}" 2>/dev/null || true
    kill -CONT "${entry##*:}" 2>/dev/null || true
  done
  local deadline=$((SECONDS + timeout))
  while :; do
    alive=()
    for entry in "$@"; do
      if nodes_alive "${entry##*:}"; then alive+=("$entry"); fi
    done
    ((${#alive[@]} > 0 && SECONDS < deadline)) || break
    sleep 0.1
  done
  ((${#alive[@]} > 0)) || return 0
  if [[ "$NODES_MSG_KILLED" == *"{pids}"* ]]; then
    nodes_line "$NODES_MSG_KILLED" "" pids="$(for entry in "${alive[@]}"; do echo "${entry##*:}"; done | xargs)" \
      timeout="$timeout" >&2
  else
    for entry in "${alive[@]}"; do
      nodes_line "$NODES_MSG_KILLED" "${entry%:*}" pid="${entry##*:}" timeout="$timeout" >&2
    done
  fi
  for entry in "${alive[@]}"; do
    kill -KILL "${entry##*:}" 2>/dev/null || true
  done
  # Gone before anything (an unmount of its layer) needs its files closed.
  for entry in "${alive[@]}"; do
    for ((deadline = SECONDS + 5; SECONDS < deadline; )); do
      nodes_alive "${entry##*:}" || break
      sleep 0.1
    done
  done
}

# nodes_stop TIMEOUT N...: stops the nodes given that run, all at once (nodes_stop_pids), clears
# the PID of each in its node.env and prints NODES_MSG_STOPPED for each that ran, in order.
nodes_stop() {
  local timeout="$1" node pid entries=()
  shift
  for node in "$@"; do
    if pid="$(nodes_pid "$node")"; then entries+=("$node:$pid"); fi
  done
  nodes_stop_pids "$timeout" "${entries[@]+"${entries[@]}"}"
  for node in "$@"; do
    if [[ -f "$(nodes_env_file "$node")" ]]; then nodes_set "$node" PID ""; fi
  done
  for node in "${entries[@]+"${entries[@]}"}"; do
    nodes_line "$NODES_MSG_STOPPED" "${node%%:*}" pid="${node#*:}"
  done
}

stop_nodes() { nodes_stop "$NODES_STOP_TIMEOUT" "$@"; }

# The file to look at when node N failed: its LOG, or its CONSOLE (stdout and stderr) when the
# process died before it logged anything.
nodes_log() {
  local log console
  log="$(nodes_get "$1" LOG)"
  console="$(nodes_get "$1" CONSOLE)"
  if [[ -s "$log" || -z "$console" ]]; then echo "$log"; else echo "$console"; fi
}

# nodes_await DEADLINE CHECK ENTRY...: waits until `CHECK ENTRY` succeeds for every entry (a node,
# or node:anything), polling them in turn, until SECONDS reaches DEADLINE. Fails when a node's
# process (node.env's NODES_PID_KEY, default PID) is gone, or at the deadline, with NODES_FAILED
# naming the node, NODES_FAILED_WHY exited or late, and NODES_FAILURE the one line that says so
# (NODES_MSG_EXITED or NODES_MSG_LATE, with {log}). Between rounds it sleeps NODES_AWAIT_POLL
# seconds (default 0.1; more where a check is costly).
nodes_await() {
  local deadline="$1" check="$2" entry node still
  shift 2
  local waiting=("$@")
  while ((${#waiting[@]} > 0)); do
    still=()
    for entry in "${waiting[@]}"; do
      node="${entry%%:*}"
      if ! nodes_alive "$(nodes_get "$node" "${NODES_PID_KEY:-PID}")"; then
        nodes_failed exited "$node" "$NODES_MSG_EXITED"
        return 1
      fi
      "$check" "$entry" || still+=("$entry")
    done
    waiting=("${still[@]+"${still[@]}"}")
    ((${#waiting[@]} > 0)) || return 0
    if ((SECONDS >= deadline)); then
      nodes_failed late "${waiting[0]%%:*}" "$NODES_MSG_LATE"
      return 1
    fi
    sleep "${NODES_AWAIT_POLL:-0.1}"
  done
}

# nodes_logged_since LOG OFFSET PATTERN: true when LOG has a line matching PATTERN (grep -E)
# after its first OFFSET bytes. Not `tail | grep -q`: grep -q quits at the match, tail dies of
# SIGPIPE when more than a pipe's 64 KB follows it, and under pipefail the check then fails every
# time, however long one waits (a Kafka node that logged a burst after "started" was never seen
# to start, and a whole-cluster restart after a power loss failed at the 180 s deadline).
nodes_logged_since() {
  grep -qE "$3" < <(tail -c +"$(($2 + 1))" "$1" 2>/dev/null)
}

nodes_failed() {
  NODES_FAILED_WHY="$1"
  NODES_FAILED="$2"
  NODES_FAILURE="$(nodes_line "$3" "$2" log="$(nodes_log "$2")")"
}

# Where start-node marks a node it launched while the cluster could not take it in yet (no
# quorum): the start-node that brings the quorum waits for it too.
nodes_pending_file() { echo "$NODES_DIR/$1/start-pending"; }

# The nodes so marked, one a line, in order.
nodes_pending() {
  local node
  for node in $(nodes_list); do
    if [[ -f "$(nodes_pending_file "$node")" ]]; then echo "$node"; fi
  done
}

nodes_clear_pending() { rm -f "$NODES_DIR"/*/start-pending; }

# --- ports -------------------------------------------------------------------------------------

# True when something accepts TCP connections on $1:$2.
nodes_port_open() {
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# True when something listens on port $1, on any address.
nodes_port_taken() {
  ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

# The first of node N's PORTS (node.env) that something listens on already; fails when none is.
nodes_taken_port() {
  local port
  for port in $(nodes_get "$1" PORTS | tr ',' ' '); do
    if nodes_port_taken "$port"; then
      echo "$port"
      return 0
    fi
  done
  return 1
}

# --- the power-loss layer (--power-loss-layer) -------------------------------------------------

# Fails with the layer's own last line when FUSE cannot mount here (or the layer cannot be built);
# $1 goes before it.
nodes_require_fuse() {
  local why
  why="$(power_loss_check 2>&1)" || die "${1:-}--power-loss-layer: ${why##*$'\n'}"
}

nodes_layer_on() { [[ -f "$(nodes_dir "$1")/power-loss.env" ]]; }

# nodes_same_layer LAYER: true when the running cluster has the power-loss layer (node 1's) as
# LAYER asks (1 with it, 0 without); NODES_HAD says what it has: "with" or "without".
nodes_same_layer() {
  local had=0
  nodes_layer_on 1 && had=1
  if ((had)); then NODES_HAD=with; else NODES_HAD=without; fi
  ((had == $1))
}

layer_data_dir() { nodes_get "$1" DATA_DIR; }

# nodes_layer_mount N DATA: mounts a layer over node N's (empty) data directory DATA and records
# its lines in power-loss.env, and in node.env if the node has one already. Fails with
# NODES_FAILURE.
nodes_layer_mount() {
  local dir
  dir="$(nodes_dir "$1")"
  power_loss_mount "$dir" "$2" ||
    { nodes_layer_failed "$1" "{name}: mounting the power-loss layer failed{see}"; return 1; }
  power_loss_env "$dir" >"$dir/power-loss.env"
  if [[ -f "$dir/node.env" ]]; then cat "$dir/power-loss.env" >>"$dir/node.env"; fi
}

# nodes_layer_sync N...: makes everything the layers of the nodes given hold durable (what the
# start wrote is on disk, as on a machine that has run a while). Fails with NODES_FAILURE.
nodes_layer_sync() {
  local node tool
  tool="$(power_loss_tool)"
  for node in "$@"; do
    "$tool" sync --control "$(power_loss_socket "$(nodes_dir "$node")")" >/dev/null ||
      { nodes_layer_failed "$node" "{name}: syncing the power-loss layer failed{see}"; return 1; }
  done
}

# nodes_layer_ensure N: before a restart. After a power loss the layer is still mounted with what
# survived; one that died (or a rebooted host) is mounted again over the node's durable data.
# Nothing for a node without a layer. Fails with NODES_FAILURE.
nodes_layer_ensure() {
  nodes_layer_on "$1" || return 0
  power_loss_ensure "$(nodes_dir "$1")" "$(layer_data_dir "$1")" ||
    { nodes_layer_failed "$1" "{name}: the power-loss layer is not mounted and mounting it failed{see}"; return 1; }
}

# nodes_layer_failed N TEMPLATE [KEY=VALUE...]: NODES_FAILURE, naming node N's layer's log.
nodes_layer_failed() {
  NODES_FAILED="$1"
  NODES_FAILURE="$(nodes_line "$2" "$1" "${@:3}" log="$(nodes_dir "$1")/power-loss.log")"
}

# Unmounts every layer still mounted under the nodes' directories, everything made durable first
# (a clean unmount syncs), with a line for each. Called once no node runs: by stop, and by start
# before it wipes the state of a cluster whose stop never ran (rm -rf through a live mount would
# reach into its backing data). The kernel reports a dead process's closes to the layer a moment
# after it is gone, and the layer refuses to unmount while a file is open: a few tries.
nodes_layer_unmount_all() {
  local node dir data tries
  for node in $(nodes_list); do
    dir="$(nodes_dir "$node")"
    data="$(layer_data_dir "$node")"
    [[ -S "$(power_loss_socket "$dir")" ]] || mountpoint -q "$data" 2>/dev/null || continue
    for tries in 1 2 3 4 5; do
      if ((tries < 5)); then
        power_loss_unmount "$dir" "$data" 2>/dev/null && break
      else
        power_loss_unmount "$dir" "$data" && break
        nodes_layer_failed "$node" "{name}: unmounting the power-loss layer at {data} failed{see}" \
          data="$data"
        die "$NODES_FAILURE"
      fi
      sleep 1
    done
    nodes_line "{title}: power-loss layer unmounted, its data durable in {durable}" "$node" \
      durable="$dir/durable"
  done
}

# "power-loss layer mounted, 1234 bytes unsynced", or that it does not answer, for status. Asks
# the tool node.env names: status must not wait for build.sh's check of the sources.
nodes_layer_state() {
  local answer
  if answer="$("$(nodes_get "$1" POWER_LOSS_TOOL)" status \
    --control "$(power_loss_socket "$(nodes_dir "$1")")" 2>&1)"; then
    echo "power-loss layer mounted, $(sed -n 's/^unsynced_bytes=//p' <<<"$answer") bytes unsynced"
  else
    echo "power-loss layer not answering"
  fi
}

# nodes_wipe [PATH...]: before a start, which begins from empty data: unmounts the layers a stop
# that never ran left, then removes NODES_DIR and the paths given.
nodes_wipe() {
  nodes_layer_unmount_all >/dev/null
  rm -rf "$NODES_DIR" "$@"
}

# --- commands ----------------------------------------------------------------------------------

# nodes_start_options ARGS...: start's options. --nodes N (or --nodes=N) sets NODES_COUNT (default
# 1; a missing N leaves it empty), --power-loss-layer sets NODES_LAYER=1 (default 0), and each
# --NAME V (or --NAME=V) whose NAME the script lists in NODES_START_VALUES sets NODES_OPTION[NAME].
# Anything else calls start_usage with it (the script's one line; it exits), and so does a missing
# value where the script sets NODES_START_STRICT=1.
nodes_start_options() {
  NODES_COUNT=1
  NODES_LAYER=0
  declare -gA NODES_OPTION=()
  local name
  while (($# > 0)); do
    case "$1" in
      --power-loss-layer) NODES_LAYER=1 ;;
      --*=*) name="${1%%=*}" && nodes_start_value "${name#--}" "${1#*=}" || start_usage "$1" ;;
      --*)
        (($# > 1)) || [[ -z "${NODES_START_STRICT:-}" ]] || start_usage "$1"
        nodes_start_value "${1#--}" "${2:-}" || start_usage "$1"
        (($# == 1)) || shift
        ;;
      *) start_usage "$1" ;;
    esac
    shift
  done
}

nodes_start_value() {
  if [[ "$1" == nodes ]]; then
    NODES_COUNT="$2"
  elif [[ " ${NODES_START_VALUES:-} " == *" $1 "* ]]; then
    NODES_OPTION[$1]="$2"
  else
    return 1
  fi
}

# status: exit 0 when every node runs whole, 1 when some do, 3 when none runs (NODES_NOT_RUNNING).
nodes_status() {
  local node total=0 up=0 whole=0
  for node in $(nodes_list); do
    total=$((total + 1))
    if nodes_up "$node"; then up=$((up + 1)); fi
    if nodes_whole "$node"; then whole=$((whole + 1)); fi
  done
  if ((up == 0)); then
    echo "$NODES_NOT_RUNNING"
    return 3
  fi
  status_lines "$whole" "$total"
  ((whole == total)) || return 1
}

# stop: every node (stop_nodes), then the layers, once no process has a file open on them.
nodes_stop_all() {
  if [[ -z "$(nodes_running)" ]]; then echo "$NODES_NOT_RUNNING"; fi
  # shellcheck disable=SC2046
  stop_nodes $(nodes_list)
  nodes_layer_unmount_all
}

# nodes_main USAGE COMMAND ARGS...: runs start, stop, status, start-node N or stop-node N; any
# other command prints "usage: <script> USAGE" and exits 2.
nodes_main() {
  local usage="$1"
  shift
  case "${1:-}" in
    start) start "${@:2}" ;;
    stop) nodes_stop_all ;;
    status) nodes_status ;;
    start-node) start_node "${2:-}" ;;
    stop-node) stop_node "${2:-}" ;;
    *)
      echo "usage: $0 $usage" >&2
      exit 2
      ;;
  esac
}

if (($# > 0)); then
  nodes_init "$1"
fi
