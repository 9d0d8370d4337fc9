# The power-loss layer under a local cluster node's data directory, for deploy/local/<broker>.sh
# started with --power-loss-layer. Sourced, not run:
#
#   source "$root/deploy/power-loss/layer.sh"
#   power_loss_mount NODE_DIR DATA_DIR   # before the node's first start: DATA_DIR is the layer
#   power_loss_env NODE_DIR              # lines for node.env (POWER_LOSS_TOOL, _CONTROL, ...)
#   power_loss_ensure NODE_DIR DATA_DIR  # before a restart: the layer is still there, or mounted again
#   power_loss_unmount NODE_DIR DATA_DIR # at stop: everything made durable, then unmounted
#
# The node's durable data lives in NODE_DIR/durable (the layer's backing directory) and the broker
# keeps using DATA_DIR, where the layer is mounted; its control socket is NODE_DIR/power-loss.sock.
# Names follow the "journaled" rule (any fsync commits earlier creates and renames, as ext4 and
# XFS do): a power loss then takes what a real machine's page cache would, no more. The rules:
# deploy/power-loss/README.md.

power_loss_tool() {
  "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/build.sh"
}

power_loss_socket() { echo "$1/power-loss.sock"; }

# Where FUSE cannot mount, one line says so and the caller starts nothing.
power_loss_check() {
  local tool
  tool="$(power_loss_tool)" || return 1
  "$tool" check >/dev/null || return 1
}

power_loss_mount() {
  local node_dir="$1" data_dir="$2" tool
  tool="$(power_loss_tool)" || return 1
  mkdir -p "$node_dir/durable"
  "$tool" mount --backing "$node_dir/durable" --mountpoint "$data_dir" \
    --control "$(power_loss_socket "$node_dir")" --names journaled \
    --log "$node_dir/power-loss.log" >/dev/null
}

power_loss_env() {
  local node_dir="$1"
  echo "POWER_LOSS_TOOL=$(power_loss_tool)"
  echo "POWER_LOSS_CONTROL=$(power_loss_socket "$node_dir")"
  echo "POWER_LOSS_BACKING=$node_dir/durable"
}

# A restart after a power loss finds the layer mounted with what survived; a layer that died
# (or a host that rebooted) is mounted again over the same durable data.
power_loss_ensure() {
  local node_dir="$1" data_dir="$2" tool
  tool="$(power_loss_tool)" || return 1
  if "$tool" status --control "$(power_loss_socket "$node_dir")" >/dev/null 2>&1; then
    return 0
  fi
  "$tool" unmount --control "$(power_loss_socket "$node_dir")" --mountpoint "$data_dir" \
    >/dev/null 2>&1 || true
  power_loss_mount "$node_dir" "$data_dir"
}

power_loss_unmount() {
  local node_dir="$1" data_dir="$2" tool
  [ -S "$(power_loss_socket "$node_dir")" ] || mountpoint -q "$data_dir" 2>/dev/null || return 0
  tool="$(power_loss_tool)" || return 1
  "$tool" unmount --control "$(power_loss_socket "$node_dir")" --mountpoint "$data_dir" >/dev/null
}
