# Sourced by build-image.sh and test-round-trip.sh: where the cache lives, how podman runs here and
# the project version.
container_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$container_dir/../.." && pwd)"
# mmdebstrap's log (the images themselves are cached in podman's storage).
cache_dir="${PLUMB_CACHE_DIR:-$HOME/.cache/plumb}/container"
export CONTAINERS_CONF="$container_dir/containers.conf"

# runc, not crun ("cgroups in hybrid mode not supported"); rlimits within the host's hard limits.
podman_run() {
  podman --runtime runc run --ulimit nofile=1024:1024 --ulimit nproc=1000:1000 "$@"
}

# The project version: the root pom's own <version> (not a parent's), read without starting Maven
# (bin/benchmark reads it the same way).
project_version() {
  awk '/<parent>/ { parent = 1 } /<\/parent>/ { parent = 0; next }
    !parent && match($0, /<version>[^<]*<\/version>/) { print substr($0, RSTART + 9, RLENGTH - 19); exit }' \
    "$repo_root/pom.xml"
}
