# Sourced by the tests deploy/local/lib/test-*.sh with the name their lines begin with
# (source "$(dirname "${BASH_SOURCE[0]}")/testing.sh" window-sweep). Sets HERE (this folder) and
# WORK (a temporary folder, removed when the test exits, after test_cleanup: a test that leaves
# processes running redefines it to end them), and defines
#   fail MESSAGE   prints "NAME: FAILED: MESSAGE" on stderr and exits 1
# shellcheck shell=bash disable=SC2034 # HERE and WORK are read by the tests
TEST_NAME="$1"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/test-${TEST_NAME// /-}.XXXXXX")"

test_cleanup() { :; }
test_exit() {
  test_cleanup || true
  rm -rf "$WORK"
}
trap test_exit EXIT

fail() {
  echo "$TEST_NAME: FAILED: $*" >&2
  exit 1
}
