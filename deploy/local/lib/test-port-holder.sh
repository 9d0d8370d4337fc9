#!/usr/bin/env bash
# Tests deploy/local/lib/port-holder.sh and the refusal of deploy/local/pulsar.sh when its web port
# is taken: once by a plain listener, once by a Plumb worker (bin/benchmark-worker, which has the
# same default port, 8080). Nothing starts a broker: the refusal comes before any. Needs the
# framework built (bin/test-all runs it after that stage); seconds.
set -euo pipefail

# shellcheck source=testing.sh
source "$(dirname "${BASH_SOURCE[0]}")/testing.sh" port-holder
REPO="$(cd "$HERE/../../.." && pwd)"
holders=()
test_cleanup() {
  for pid in "${holders[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
}

# shellcheck source=port-holder.sh
source "$HERE/port-holder.sh"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Polls until something listens on $1 (at most 60 s: a JVM's start on a busy host).
await_listener() {
  for _ in $(seq 1 600); do
    [[ -n "$(port_holder "$1")" ]] && return 0
    sleep 0.1
  done
  fail "nothing listened on $1 within 60 s"
}

# A listener that is not Plumb's.
port="$(free_port)"
python3 -c "
import socket, time
s = socket.socket(); s.bind(('127.0.0.1', $port)); s.listen(); time.sleep(120)" &
holders+=($!)
await_listener "$port"
[[ "$(port_holder "$port")" == "pid ${holders[0]}, python3" ]] ||
  fail "port_holder $port said '$(port_holder "$port")', not 'pid ${holders[0]}, python3'"
[[ -z "$(port_taken_hint "$port")" ]] || fail "a hint for a stranger's port: $(port_taken_hint "$port")"
[[ -z "$(port_holder "$(free_port)")" ]] || fail "a holder named for a free port"

status=0
out="$(PLUMB_STATE_DIR="$WORK/state" PLUMB_PULSAR_WEB_PORT="$port" "$REPO/deploy/local/pulsar.sh" start 2>&1)" || status=$?
expected="pulsar.sh: port 127.0.0.1:$port (Pulsar's web service and admin API) is already in use by pid ${holders[0]}, python3; or start Pulsar on another: PLUMB_PULSAR_WEB_PORT=N deploy/local/pulsar.sh start, and give driver files --driver-set client.httpUrl=http://127.0.0.1:N"
((status == 1)) || fail "pulsar.sh start on a taken web port exited $status, not 1: $out"
[[ "$out" == "$expected" ]] || fail "pulsar.sh start said: $out"

# A Plumb worker on the port: the refusal says how to move the worker.
port="$(free_port)"
"$REPO/bin/benchmark-worker" --port "$port" >"$WORK/worker.log" 2>&1 &
holders+=($!)
await_listener "$port"
status=0
out="$(PLUMB_STATE_DIR="$WORK/state" PLUMB_PULSAR_WEB_PORT="$port" "$REPO/deploy/local/pulsar.sh" start 2>&1)" || status=$?
((status == 1)) || fail "pulsar.sh start beside a worker exited $status, not 1: $out"
[[ "$out" == *"is already in use by pid "*", java io.plumb.cli.WorkerMain, a Plumb worker: start it on another port (bin/benchmark-worker --port N); or start Pulsar on another: PLUMB_PULSAR_WEB_PORT=N"* ]] ||
  fail "pulsar.sh start beside a worker said: $out"

status=0
out="$(PLUMB_PULSAR_WEB_PORT=http PLUMB_STATE_DIR="$WORK/state" "$REPO/deploy/local/pulsar.sh" start 2>&1)" || status=$?
[[ $status == 1 && "$out" == "pulsar.sh: PLUMB_PULSAR_WEB_PORT=http: expected a port number from 1 to 65535" ]] ||
  fail "a bad PLUMB_PULSAR_WEB_PORT got exit $status: $out"

echo "port-holder: passed (a listener, a worker and a bad port named)"
