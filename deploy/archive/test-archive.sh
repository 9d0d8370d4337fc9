#!/usr/bin/env bash
# The release archive on its own: unpacked into an empty directory away from the source tree, with
# a bare environment (no Maven, no source tree's variables), its bin/benchmark runs the loopback
# driver's smoke workload and writes a complete result, and bin/benchmark-worker starts.
#
#   deploy/archive/test-archive.sh [ARCHIVE]    (default: deploy/archive/target/plumb-*.tar.gz)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
archive="${1:-$(ls "$repo_root"/deploy/archive/target/plumb-*.tar.gz 2>/dev/null | head -1)}"
[[ -f "$archive" ]] || {
  echo "archive: no archive: run 'mvn -q package -DskipTests' first" >&2
  exit 2
}
work="$(mktemp -d /tmp/plumb-archive-XXXXXX)"
trap 'rm -rf "$work"' EXIT

tar -xzf "$archive" -C "$work"
home=("$work"/plumb-*)
java_bin="$(dirname "$(readlink -f "$(command -v java)")")"
bare=(env -i "HOME=$work" "PATH=$java_bin:/usr/bin:/bin" "PLUMB_JAVA_OPTS=-Xms256m -Xmx512m -XX:+UseG1GC")

echo "== $(basename "$archive"): $(ls "$home/lib" | wc -l) jars, $(du -sh "$archive" | cut -f1)"
# The licence and the notice travel with the jars, and the notice names every third-party jar
# (deploy/archive/notice.py writes it from the same classpath).
for file in LICENSE NOTICE; do
  [[ -s "$home/$file" ]] || { echo "archive: FAILED: no $file in the archive" >&2; exit 1; }
done
unlisted="$(cd "$home/lib" && for jar in *.jar; do
  case "$jar" in benchmark-framework-* | driver-*) continue ;; esac
  grep -q "^$jar " "$home/NOTICE" || echo "$jar"
done)"
[[ -z "$unlisted" ]] ||
  { echo "archive: FAILED: NOTICE does not name $(echo $unlisted): run deploy/archive/notice.py" >&2; exit 1; }
echo "archive: ok: LICENSE, and NOTICE names all $(ls "$home/lib" | grep -cv '^\(benchmark-framework\|driver-\)') third-party jars"
(cd "$home" && "${bare[@]}" bin/benchmark -d benchmark-framework/loopback.yaml \
  -o "$work/result.json" workloads/loopback-smoke.yaml) >"$work/run.log" 2>&1 ||
  { cat "$work/run.log" >&2; echo "archive: FAILED: bin/benchmark from the archive" >&2; exit 1; }
grep -q '"complete" *: *true' "$work/result.json" ||
  { echo "archive: FAILED: the result is not complete" >&2; exit 1; }
echo "archive: ok: bin/benchmark ran workloads/loopback-smoke.yaml: $(grep -m1 '^Messages' "$work/run.log")"

# The worker answers its port: the archive's second launcher works too.
port=28183
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "archive: port $port is taken: free it first" >&2
  exit 1
fi
(cd "$home" && exec "${bare[@]}" bin/benchmark-worker --port "$port") >"$work/worker.log" 2>&1 &
worker=$!
for _ in $(seq 1 120); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  kill -0 "$worker" 2>/dev/null || break
  sleep 0.25
done
if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  kill "$worker" 2>/dev/null || true
  cat "$work/worker.log" >&2
  echo "archive: FAILED: bin/benchmark-worker did not listen on 127.0.0.1:$port" >&2
  exit 1
fi
kill "$worker"
wait "$worker" 2>/dev/null || true
echo "archive: ok: bin/benchmark-worker listened on 127.0.0.1:$port"
echo "archive: passed"
