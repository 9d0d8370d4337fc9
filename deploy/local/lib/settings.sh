# Sourced by deploy/local/lib/nodes.sh and lib/native-pairs.sh: how the scripts read the settings
# that the environment may override.
#
# plumb_settings PREFIX NAME=DEFAULT...: sets each variable NAME to PLUMB_<PREFIX>_<NAME> where the
# environment has it (and not empty), else to DEFAULT: `plumb_settings KAFKA PORT=9092` is
# PORT="${PLUMB_KAFKA_PORT:-9092}".
# shellcheck shell=bash
plumb_settings() {
  local prefix="$1" setting variable
  shift
  for setting in "$@"; do
    variable="PLUMB_${prefix}_${setting%%=*}"
    printf -v "${setting%%=*}" '%s' "${!variable:-${setting#*=}}"
  done
}
