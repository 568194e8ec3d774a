#!/usr/bin/env bash
# xq: the one entry point of the project. Installs missing Debian packages, configures, builds,
# tests and runs the tools. Run "./xq help" for the commands.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${XQ_BUILD_DIR:-$root/build}"

# Everything the build, the tests and the tools need, from Debian's archive.
packages=(
  cmake ninja-build g++ pkg-config
  libgtest-dev libboost-dev libboost-program-options-dev nlohmann-json3-dev
  libprotobuf-dev protobuf-compiler libsqlite3-dev
  fairy-stockfish xvfb xauth
  iproute2  # tests/server/net/netns: two hosts in network namespaces
  libsfml-dev libx11-dev fonts-wqy-microhei xdotool
  clang-19 libclang-rt-19-dev  # fuzz/: libFuzzer (clang 14 cannot compile C++23's <expected>)
  libssl-dev ca-certificates libsodium-dev  # issue 18: TLS (OpenSSL 3), Argon2id and tokens (libsodium)
  postgresql-15 postgresql-client-15 libpq-dev  # issue 20: the PostgreSQL store (raw libpq) and its throw-away test server
  redis-server  # issue 20: the cluster's Redis, started by tests/support/temp_redis (brings redis-tools)
  chromium  # issue 23: the watch page's tests drive Debian's Chromium headless (puppeteer-core)
  lld  # CI time: LLVM's linker, ~3x faster than GNU ld on our executables (cmake/Linker.cmake)
)

usage() {
  cat <<'USAGE'
usage: ./xq COMMAND [ARGS]

  play [--join HOST[:PORT]] [CLIENT ARGS]
                           start a local server (announced on the LAN) and a client window connected
                           to it; --join connects to another machine's server instead
  client [ARGS]            the desktop client (xiangqi-client; --help lists every option)
  test [--plain | --sanitize LIST] [CTEST ARGS]
                           install, build, run the whole CTest suite under xvfb-run, then build it
                           again with AddressSanitizer and UndefinedBehaviorSanitizer in
                           build-sanitize-address-undefined and run it there too (all but label
                           fuzz, whose targets are sanitized already); fails if either run fails.
                           --plain: the first run only. --sanitize LIST: only a run with those
                           sanitizers (address,undefined or thread) in build-sanitize-LIST, with the
                           runtime options and suppressions of cmake/sanitizers/
  build                    install and build only (the C++ and the browser's watch page, web/)
  perft FEN|startpos DEPTH [--divide]
                           count legal move paths; the last line is "nodes N"; --divide first
                           prints "h2e2 N" for each root move
  rules --fen FEN|startpos [--moves "h2e2 h9g7 ..."]
                           apply ICCS moves and print one line of JSON: fen, side_to_move,
                           in_check, legal_moves, result, reason; errors print JSON and exit 2
  pgn import [FILE|-] [--encoding big5|gbk|gb18030|utf-8]
                           read PGN (xqbase or engine style), one JSON line per game: tags, fen,
                           moves (ICCS), result, final_fen, and error {code, line, ply, text}
  pgn export --fen FEN|startpos --moves "..." [--style xqbase|engine]
             [--notation chinese|traditional|wxf|iccs] [--tag Name=Value ...] [--result R]
                           write one game as PGN
  server [--listen ADDR:PORT] [--db PATH] [--name NAME] [--log-level L] ...
                           run the game server (xiangqi-server; --help lists every option)
  bot --server ADDR:PORT --level N [--name NAME] [--quick-match --games K] [--time-control 5+3]
                           a computer player (xiangqi-bot, fairy-stockfish; levels 1-8): hosts an
                           open game in the lobby and plays whoever joins, or quick-matches K games
                           and exits, printing one JSON line per game (--help lists every option)
  loadgen --server ADDR:PORT [--games G] [--spectators S] [--move-interval-ms I] [--seconds T]
          [--server-pid PID] [--relay] [--reconnect] ...
                           random-move bots and spectators against a running server over TCP;
                           checks every game's moves and result, prints one line of JSON;
                           --reconnect: dropped bots resume (acked_moves_lost must be 0)
  cluster N [--dir DIR] [--port FIRST] [-- NODE ARGS]
                           a cluster on this machine (docs/cluster.md): a throw-away PostgreSQL and
                           redis-server in DIR (default build/cluster) and N server nodes on ports
                           7777, 7778, ...; clients may connect to any node; Ctrl-C stops them all;
                           NODE ARGS go to every node (-- --bots 2: computer opponents, run by
                           one node at a time)
  bench perft [ROUNDS]     our perft against fairy-stockfish's (depth 5), nodes/s and ratio
  bench server [--quick]   the server under load (saturation, medium, 5,000-game capacity) against
                           a bare length-prefixed relay; prints each row and the ratio; saturation
                           over TLS against plain; the capacity row again beside a login storm
  bench client [FRAMES] [--client PATH]
                           the client under Xvfb: its CPU at rest against a real server (a lobby
                           listing a live game, watching a game nobody moves in), then its frame
                           time (full board, highlights, ticking clock) against a clear-and-display
                           frame; --client measures another build's client at rest
  bench differential [GAMES]
                           the Fairy-Stockfish differential test on a larger sample
  bench web [WATCHERS [DESKTOP [SECONDS [INTERVAL_MS]]]]
                           one game watched by DESKTOP spectators (1,000) and WATCHERS WebSocket
                           watchers (5,000) against the same run without the latter: memory per
                           watcher, delivery p50/p99 per kind, the mover's ack p99 and its ratio
  fuzz TARGET SECONDS | list
                           build a libFuzzer target with clang in build-fuzz/ and run it for SECONDS
                           on build-fuzz/corpus/TARGET (seeded from fuzz/seeds/); prints the executions
  fresh-test [COMMAND]     (root) the committed tree in a throw-away minimal Debian 12 root, as a
                           newcomer's machine: runs COMMAND there (default ./xq test); ~15 min
  help                     this text

Environment: XQ_BUILD_DIR (default ./build), XQ_JOBS (parallel compile jobs, default nproc).
USAGE
}

log() { printf 'xq: %s\n' "$*" >&2; }

ensure_packages() {
  local missing=() pkg status
  for pkg in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  log "installing ${missing[*]}"
  local sudo=()
  ((EUID == 0)) || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
}

# The watch page's build tools come from npm (web/package-lock.json). Debian's nodejs and npm are
# installed only when no node is there (a fresh Debian 12 gets Node 18): a newer nodejs already
# installed brings its own npm, and Debian's npm package would not fit it.
ensure_node() {
  command -v node >/dev/null && command -v npm >/dev/null && return 0
  packages+=(nodejs npm)
  ensure_packages
}

# npm ci into web/node_modules, only when the lockfile changed since the last one (npm ci empties
# node_modules first, and the build itself must not need the network).
web_dependencies() {
  ensure_node
  local lock="$root/web/package-lock.json" stamp="$root/web/node_modules/.xq-package-lock.json"
  [[ -f "$stamp" ]] && cmp -s "$lock" "$stamp" && return 0
  log "npm ci in web/ (the watch page's build tools)"
  (cd "$root/web" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$lock" "$stamp"
}

configure() {
  [[ -f "$build/build.ninja" ]] && return 0
  # -g1 (line tables: backtraces keep file and line, gdb loses locals) compiles with 25-32% less
  # CPU than -g (BENCHMARKS.md, "CI time"); reconfigure with -g for a debugging session.
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_WERROR=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=${optimise:--O2 -g1 -DNDEBUG}" "${cmake_extra[@]}"
}

build_all() {
  ensure_packages
  web_dependencies
  configure
  cmake --build "$build" -j "${XQ_JOBS:-$(nproc)}"
}

# Builds one target: quietly when it is up to date, with the compiler's output when it is not (or
# fails). Commands that run one program start at once when the build exists.
build_target() {
  [[ -f "$build/build.ninja" ]] || build_all >&2
  cmake --build "$build" --target "$1" >/dev/null || cmake --build "$build" --target "$1" >&2
}

# The sanitizer runtimes' options for a sanitized test run; the children the tests start
# (xiangqi-server, xiangqi-bot, xiangqi-client) inherit them. Suppressions, each for a third-party
# library only and each with its reason, are in cmake/sanitizers/. Options already in the
# environment come last and so win.
sanitizer_env() {
  local supp="$root/cmake/sanitizers"
  export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
}

# Builds and runs the suite: run_suite "" [CTEST ARGS] in $build, run_suite LIST [CTEST ARGS] with
# -fsanitize=LIST in build-sanitize-LIST (the libFuzzer smoke runs, label fuzz, are left out there:
# their targets are built with ASan and UBSan by clang already).
run_suite() {
  local sanitize="$1" label_args=()
  shift
  if [[ -n "$sanitize" ]]; then
    build="$root/build-sanitize-${sanitize//,/-}"
    # Sanitizer instrumentation makes g++ 12 warn falsely inside Boost.Asio's coroutine frames
    # (-Wmismatched-new-delete), so warnings stay warnings in this build.
    # -O1 -g1 (line tables: enough for the sanitizers' stack traces) is what ASan's authors advise
    # and compiles ~40% faster than -O2 -g here (net_test.cpp: 299 s against 500 s, loaded machine).
    local optimise="-O1 -g1 -DNDEBUG"  # configure() reads it (bash scoping is dynamic)
    cmake_extra=("-DCMAKE_CXX_FLAGS=-fsanitize=$sanitize -fno-omit-frame-pointer -fno-sanitize-recover=all"
                 "-DXQ_WERROR=OFF"
                 "-DXQ_BUILD_BENCHMARKS=OFF")  # only the benchmarks the tests start
    label_args=(-LE fuzz)
    sanitizer_env
  fi
  local started=$SECONDS status=0
  build_all
  log "built $build in $((SECONDS - started)) s; running the suite"
  started=$SECONDS
  cd "$build"
  xvfb-run -a -s "-screen 0 1280x1024x24" \
    ctest --output-on-failure --no-tests=error -j "$(nproc)" "${label_args[@]}" "$@" || status=$?
  log "the suite in $build took $((SECONDS - started)) s (exit $status)"
  return "$status"
}

cmake_extra=()
command="${1:-help}"
(($#)) && shift
case "$command" in
  play | client)
    build_all >&2
    client_args=()
    if [[ "$command" == play ]]; then
      if [[ "${1:-}" == "--join" ]]; then
        [[ -n "${2:-}" ]] || { log "--join needs a HOST or HOST:PORT"; exit 2; }
        client_args=(--connect "$2")
        shift 2
      else
        client_args=(--host)
      fi
    fi
    if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
      log "no display: the client needs a desktop session (or run it under xvfb-run)"
      exit 2
    fi
    exec "$build/client/xiangqi-client" "${client_args[@]}" "$@"
    ;;
  test)
    mode=both
    case "${1:-}" in
      --plain) mode=plain; shift ;;
      --sanitize)
        [[ -n "${2:-}" ]] || { log "--sanitize needs a list, e.g. address,undefined or thread"; exit 2; }
        mode="$2"
        shift 2
        ;;
    esac
    case "$mode" in
      plain) run_suite "" "$@" ;;
      both)
        # CI runs this: the plain suite, then the same suite under ASan+UBSan; both must pass. Each
        # runs as a process of its own, so that set -e holds inside it; the second runs even when
        # the first failed, so that one CI run tells both.
        status=0
        "$root/xq" test --plain "$@" || status=$?
        ((status == 0)) || log "the plain suite failed (exit $status); the sanitized suite runs all the same"
        san_status=0
        "$root/xq" test --sanitize address,undefined "$@" || san_status=$?
        ((san_status == 0)) || log "the address,undefined suite failed (exit $san_status)"
        ((status == 0 && san_status == 0)) || exit 1
        ;;
      *) run_suite "$mode" "$@" ;;
    esac
    ;;
  build) build_all ;;
  server)
    build_target xiangqi-server
    web_dependencies >&2
    build_target web  # the page the server serves (build/web/dist)
    exec "$build/server/xiangqi-server" "$@"
    ;;
  cluster)
    (($#)) || { log "usage: ./xq cluster N [--dir DIR] [--port FIRST] [-- NODE ARGS]"; exit 2; }
    build_target xiangqi-server
    build_target xiangqi-bot  # for -- --bots K: the nodes find it in build/bot
    web_dependencies >&2
    build_target web
    exec "$root/tools/cluster.sh" "$build" "$@"
    ;;
  bot)
    build_target xiangqi-bot
    exec "$build/bot/xiangqi-bot" "$@"
    ;;
  loadgen)
    build_target loadgen
    exec "$build/bench/loadgen" "$@"
    ;;
  perft | rules | pgn)
    build_target xq-tool
    exec "$build/tools/xq-tool" "$command" "$@"
    ;;
  fresh-test)
    # The README's promise, checked: the committed tree in a throw-away minimal Debian 12 root (no
    # compiler, nothing beside the project), where "./xq test" (or the given command) must pass.
    ((EUID == 0)) || { log "fresh-test needs root (debootstrap, namespaces, chroot)"; exit 2; }
    (($#)) || set -- ./xq test
    exec "$root/tools/fresh-machine.sh" "$root" "$@"
    ;;
  bench)
    build_all >&2
    what="${1:-perft}"
    (($#)) && shift
    case "$what" in
      perft) exec "$build/bench/perft_bench" "${1:-3}" 5 ;;
      differential)
        XQ_DIFF_GAMES="${1:-20000}" exec "$build/tests/differential_tests" \
          --gtest_filter=Differential.LegalMovesMatchFairyStockfish
        ;;
      server) exec "$root/bench/server_bench.sh" "$build" "$@" ;;
      web) exec "$root/bench/web_watch_bench.sh" "$build" "$@" ;;
      client)
        exec xvfb-run -a -s "-screen 0 1280x1024x24" "$build/bench/client_frame_bench" "${@:-600}"
        ;;
      *) log "unknown benchmark '$what' (perft, differential, server, client, web)"; exit 2 ;;
    esac
    ;;
  fuzz)
    [[ "${1:-list}" == list ]] && exec "$root/fuzz/fuzz.sh" list
    (($# >= 2)) || { log "usage: ./xq fuzz TARGET SECONDS (./xq fuzz list)"; exit 2; }
    ensure_packages
    exec "$root/fuzz/fuzz.sh" run "$root/build-fuzz" "$@"
    ;;
  help | -h | --help) usage ;;
  *)
    log "unknown command '$command'"
    usage >&2
    exit 2
    ;;
esac
