#!/usr/bin/env bash
# Builds the power-loss layer and runs its tests. They mount real layers, so they need root and
# FUSE; where either is missing they fail, in one line, rather than skip.
#
#   deploy/power-loss/test.sh [extra go test options]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$("$here/build.sh")"
"$bin" check

go="${GO:-$(command -v go || true)}"
go="${go:-/usr/local/go/bin/go}"
cd "$here"
# -v shows what the crash test killed and dropped, and the append throughput beside the disk's.
"$go" test -count=1 -timeout 180s -v "$@" ./...
