# Sourced by build-image.sh and test-round-trip.sh: where the cache lives and how podman runs here.
container_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$container_dir/../.." && pwd)"
# mmdebstrap's log (the images themselves are cached in podman's storage).
cache_dir="${PLUMB_CACHE_DIR:-$HOME/.cache/plumb}/container"
export CONTAINERS_CONF="$container_dir/containers.conf"

# runc, not crun ("cgroups in hybrid mode not supported"); rlimits within the host's hard limits.
podman_run() {
  podman --runtime runc run --ulimit nofile=1024:1024 --ulimit nproc=1000:1000 "$@"
}
