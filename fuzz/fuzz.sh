#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in a clang build folder of their own (every library
# instrumented for coverage, AddressSanitizer and UndefinedBehaviorSanitizer; asserts left on).
# Used by "./xq fuzz" and by CTest (label fuzz). See fuzz/README.md.
#
#   fuzz.sh list
#   fuzz.sh build DIR [TARGET...]            configure DIR once, build the targets (default: all)
#   fuzz.sh run DIR TARGET SECONDS [ARGS]    keep a corpus in DIR/corpus/TARGET, seeded from seeds/
#   fuzz.sh smoke DIR TARGET SECONDS         a fresh corpus each time (CTest)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
targets=(fuzz_frame fuzz_dispatch fuzz_fen fuzz_notation fuzz_pgn fuzz_names fuzz_resp fuzz_web)
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

die() { printf 'fuzz: %s\n' "$*" >&2; exit 2; }

known() {
  local t
  for t in "${targets[@]}"; do [[ "$t" == "$1" ]] && return 0; done
  die "unknown target '$1' (${targets[*]})"
}

# Debian 12's clang 14 cannot compile the project (its libstdc++ <expected> needs clang 19's
# concepts), so fuzzing uses clang-19 and its libFuzzer runtime (packages clang-19,
# libclang-rt-19-dev; ./xq installs them). XQ_FUZZ_CC / XQ_FUZZ_CXX override.
cc="${XQ_FUZZ_CC:-clang-19}"
cxx="${XQ_FUZZ_CXX:-clang++-19}"
check_clang() {
  command -v "$cxx" >/dev/null || die "$cxx not found: install clang-19 and libclang-rt-19-dev (./xq fuzz does)"
  printf 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }\n' |
    "$cxx" -x c++ - -fsanitize=fuzzer -o /dev/null 2>/dev/null ||
    die "$cxx cannot link a libFuzzer target: install libclang-rt-19-dev (./xq fuzz does)"
}

build() {
  local dir="$1"
  shift
  check_clang
  if [[ ! -f "$dir/build.ninja" ]]; then
    # -O2 -g without -DNDEBUG: the libraries' asserts are invariants the fuzzers should reach too.
    CC="$cc" CXX="$cxx" cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g" \
      -DXQ_FUZZ=ON -DXQ_BUILD_TESTS=OFF -DXQ_BUILD_CLIENT=OFF >/dev/null
  fi
  (($#)) || set -- "${targets[@]}"
  cmake --build "$dir" --target "$@"
}

# Runs TARGET for SECONDS on CORPUS (new inputs are written there) plus the committed seeds, then
# prints the executions reached. A crash leaves its input in DIR/artifacts/TARGET/.
run() {
  local dir="$1" target="$2" seconds="$3" corpus="$4"
  shift 4
  local seeds="$here/seeds/$target" artifacts="$dir/artifacts/$target" log
  mkdir -p "$corpus" "$artifacts"
  log="$(mktemp)"
  local status=0
  ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
    "$dir/fuzz/$target" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$@" "$corpus" "$seeds" 2>"$log" || status=$?
  local execs rate
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
  rate="$(sed -n 's/.*exec\/s: \([0-9]*\).*/\1/p' "$log" | tail -n 1)"
  if ((status != 0)); then
    cat "$log" >&2
    printf 'fuzz: %s FAILED (exit %d); the input is in %s\n' "$target" "$status" "$artifacts" >&2
  else
    grep -E '^#[0-9]+ +DONE' "$log" || true
  fi
  rm -f "$log"
  printf '%s: %s executions in %s s (%s exec/s), corpus %s files, %s\n' "$target" "${execs:-?}" "$seconds" \
    "${rate:-?}" "$(find "$corpus" -type f | wc -l)" "$( ((status == 0)) && echo "no finding" || echo "FINDING")"
  return "$status"
}

command="${1:-list}"
(($#)) && shift
case "$command" in
  list) printf '%s\n' "${targets[@]}" ;;
  build)
    (($# >= 1)) || die "usage: fuzz.sh build DIR [TARGET...]"
    for t in "${@:2}"; do known "$t"; done
    build "$@"
    ;;
  run | smoke)
    (($# >= 3)) || die "usage: fuzz.sh $command DIR TARGET SECONDS"
    dir="$1" target="$2" seconds="$3"
    shift 3
    known "$target"
    [[ "$seconds" =~ ^[0-9]+$ ]] || die "SECONDS must be a whole number, not '$seconds'"
    build "$dir" "$target" >/dev/null
    if [[ "$command" == smoke ]]; then
      corpus="$dir/smoke/$target"
      rm -rf "$corpus"
    else
      corpus="$dir/corpus/$target"
    fi
    run "$dir" "$target" "$seconds" "$corpus" "$@"
    ;;
  *) die "unknown command '$command' (list, build, run, smoke)" ;;
esac
