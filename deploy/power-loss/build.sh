#!/usr/bin/env bash
# Builds the power-loss layer to .plumb/bin/plumb-power-loss (under the repository root), only
# when its sources changed since the last build, and prints the binary's path.
#
#   deploy/power-loss/build.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$root/.plumb/bin/plumb-power-loss"
stamp="$bin.sources"

go="${GO:-$(command -v go || true)}"
go="${go:-/usr/local/go/bin/go}"
if [ ! -x "$go" ]; then
  echo "deploy/power-loss/build.sh: no Go toolchain (go on PATH or /usr/local/go/bin/go)" >&2
  exit 1
fi

# What the binary is built from: the module files and every non-test Go source.
sources="$(cd "$here" && ls go.mod go.sum *.go | grep -v '_test\.go$')"
sum="$( (cd "$here" && "$go" version && cat $sources) | sha256sum | cut -d' ' -f1)"
if [ -x "$bin" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
  echo "$bin"
  exit 0
fi

mkdir -p "$(dirname "$bin")"
echo "building $bin" >&2
(cd "$here" && "$go" build -trimpath -o "$bin.tmp" .)
mv "$bin.tmp" "$bin"
echo "$sum" > "$stamp"
echo "$bin"
