# Sourced by deploy/local/<broker>.sh: names the process that already listens on a port, so a
# start that finds its port taken says by what, and how to choose another, in one line.
#
#   port_holder PORT   prints "pid 1234, java io.plumb.cli.WorkerMain" (empty when no process of
#                      this host that this user may see listens on PORT)
#   port_taken_hint PORT
#                      prints what to do when the holder is one of Plumb's own processes
#                      (e.g. a worker: start it with bin/benchmark-worker --port N), else nothing

# The java launcher's options whose value is the next argument, not the main class.
JVM_OPTIONS_WITH_VALUE="-cp -classpath --class-path -p --module-path --upgrade-module-path --add-modules --add-opens --add-exports --add-reads --patch-module --limit-modules --enable-native-access"

# The program and, for a JVM, its main class: a JVM's command line is mostly its classpath.
port_holder_command() {
  local pid=$1 args=() arg skip=0 main=""
  [[ -r /proc/$pid/cmdline ]] || return 0
  mapfile -d '' args <"/proc/$pid/cmdline"
  ((${#args[@]})) || return 0
  if [[ "$(basename "${args[0]}")" != java ]]; then
    echo "$(basename "${args[0]}")"
    return 0
  fi
  for arg in "${args[@]:1}"; do
    if [[ "$skip" == value ]]; then
      skip=0
    elif [[ "$skip" == jar ]]; then
      main="-jar $arg"
      break
    elif [[ " $JVM_OPTIONS_WITH_VALUE " == *" $arg "* ]]; then
      skip=value
    elif [[ "$arg" == -jar ]]; then
      skip=jar
    elif [[ "$arg" != -* ]]; then
      main="$arg"
      break
    fi
  done
  echo "java${main:+ $main}"
}

port_holder() {
  local port=$1 pid
  command -v ss >/dev/null || return 0
  pid="$(ss -Htlnp "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)"
  [[ -n "$pid" ]] || return 0
  echo "pid $pid, $(port_holder_command "$pid")"
}

port_taken_hint() {
  case "$(port_holder "$1")" in
    *io.plumb.cli.WorkerMain*) echo "a Plumb worker: start it on another port (bin/benchmark-worker --port N)" ;;
    *io.plumb.cli.Main*) echo "a Plumb run: wait for it to end" ;;
    *) ;;
  esac
}
