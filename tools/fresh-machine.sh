#!/usr/bin/env bash
# (Kept here so that anyone can repeat the fresh-machine check: ./xq fresh-test. It came with the
# project's shared tooling; only this note and one comment's wording differ.)
# fresh-machine.sh - do a project's README commands really set up a fresh Debian 12?
#
# Usage (as root): tools/fresh-machine.sh PROJECT_DIR COMMAND...
#   e.g. tools/fresh-machine.sh /path/to/checkout ./xq test
#        tools/fresh-machine.sh /path/to/checkout bash -c './xq build && ./xq test'
#
# Copies PROJECT_DIR's committed files (git archive HEAD: no .git, no uncommitted
# changes; a plain copy without build dirs if it is no git repo) to /root/project in
# a throw-away Debian bookworm root and runs COMMAND there as root, stdin /dev/null.
# The root is debootstrap --variant=minbase + ca-certificates, git, python3 (what a
# minimal Debian image has, plus git and python3; bash is in minbase; no sudo, no
# compiler), apt lists emptied, so the project must run apt-get update/install
# itself; dpkg runs with force-unsafe-io (no fsync; much faster). Built once from
# the host's Debian mirror, cached as a tarball plus an unpacked copy that each run
# overlays (overlayfs) so a run starts in ~1 s.
# /proc, /sys, /dev (+/dev/pts, a fresh /dev/shm) are mounted inside private
# mount/PID/IPC namespaces (unshare): every mount and every process of the run
# (daemons too) vanish when it ends, however it ends (error, timeout, Ctrl-C, kill).
# Network and /etc/resolv.conf are the host's, so apt works. No systemd inside.
#
# Env: FRESH_TIMEOUT  seconds for COMMAND (default 3600)
#      FRESH_DIR      work dir (default /tmp/fresh): cache/, runs/, logs/
#      FRESH_PACKAGES extra packages (default ca-certificates,git,python3)
#      FRESH_SHARED   a folder copied to /root/shared, beside the project (as CI has it)
#      FRESH_KEEP=1   keep the run's whole root afterwards (chroot DIR bash to look)
# Output goes to the terminal and $FRESH_DIR/logs/*.log; last line is
#   fresh-machine: COMMAND exit=N in S s     and the script exits N (124: timeout).
set -Eeuo pipefail

[ $# -ge 2 ] || { sed -n '6,8p' "$0"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "fresh-machine: must run as root" >&2; exit 2; }
PROJECT=$(cd "$1" && pwd); shift
FRESH_DIR=${FRESH_DIR:-/tmp/fresh}
TIMEOUT=${FRESH_TIMEOUT:-3600}
PACKAGES=${FRESH_PACKAGES:-ca-certificates,git,python3}
STAMP=$(date +%Y%m%d-%H%M%S)-$$
RUN=$FRESH_DIR/runs/$STAMP
LOG=$FRESH_DIR/logs/$STAMP-$(basename "$PROJECT").log
mkdir -p "$FRESH_DIR/cache" "$FRESH_DIR/logs" "$RUN"/{root,work} "$RUN/upper/etc"
say() { echo "fresh-machine: $*"; }

exec 3>&1 4>&2 > >(tee -i -a "$LOG") 2>&1; TEE=$!   # -i: Ctrl-C must not kill the log
cleanup() {
  # Mounts exist only in the run's own namespace; should one ever show up here,
  # detach it first, and never let rm cross a file-system boundary.
  awk -v r="$FRESH_DIR/" 'index($5, r) == 1 {print $5}' /proc/self/mountinfo |
    sort -r | xargs -r -n1 umount -l || true
  [ "${FRESH_KEEP:-0}" = 1 ] || rm -rf --one-file-system "$RUN" "$FRESH_DIR/cache/build.$$"
  exec 1>&3 2>&4; wait "$TEE" 2>/dev/null || true
}
trap cleanup EXIT
trap 'say "set-up failed (line $LINENO): $BASH_COMMAND"' ERR

build_cache() {   # debootstrap a minimal bookworm root and pack it
  command -v debootstrap >/dev/null && command -v zstd >/dev/null ||
    { apt-get update -q && apt-get install -y -q debootstrap zstd; }
  local b=$FRESH_DIR/cache/build.$$ srcs=() mirror f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.{list,sources}; do
    if [ -f "$f" ]; then srcs+=("$f"); fi; done
  mirror=$(grep -hsE '^[[:space:]]*(URIs:|deb )' "${srcs[@]}" | grep -oE 'https?://[^ ]+' |
           grep -vm1 security)
  say "first run: debootstrap bookworm (minbase + $PACKAGES) from $mirror"
  unshare --mount debootstrap --variant=minbase --include="$PACKAGES" bookworm "$b" "$mirror"
  for f in "${srcs[@]}"; do     # the host's Debian sources: main, -updates, -security
    if grep -qF "$mirror" "$f"; then
      cp "$f" "$b/etc/apt/sources.list.d/"; rm -f "$b/etc/apt/sources.list"; fi; done
  rm -rf "$b"/var/lib/apt/lists/* "$b"/var/cache/apt/*.bin "$b"/var/cache/apt/archives/*.deb
  # dpkg without fsync: apt-get install of g++/cmake 22 s instead of 120 s here;
  # changes nothing that gets installed (a throw-away root needs no crash safety)
  echo force-unsafe-io > "$b/etc/dpkg/dpkg.cfg.d/fresh-machine-unsafe-io"
  tar -C "$b" --zstd -cf "$CACHE.tmp" . && mv "$CACHE.tmp" "$CACHE"
  rm -rf --one-file-system "$b"
}
# The cache's name changes with the package list and with the recipe above.
CACHE=$FRESH_DIR/cache/bookworm-$({ echo "$PACKAGES"; declare -f build_cache; } |
  md5sum | cut -c1-8).tar.zst
BASE=${CACHE%.tar.zst}.root     # unpacked, read-only lower layer of every run

T0=$SECONDS
OVERLAY=$(grep -qw overlay /proc/filesystems && [ "${FRESH_KEEP:-0}" != 1 ] && echo 1 || true)
( flock 9; [ -f "$CACHE" ] || build_cache
  if [ -n "$OVERLAY" ] && [ ! -d "$BASE" ]; then
    rm -rf "$BASE.tmp"; mkdir "$BASE.tmp"; tar -C "$BASE.tmp" --zstd -xf "$CACHE"
    mv "$BASE.tmp" "$BASE"; fi ) 9>"$FRESH_DIR/cache/.lock"

# What this run adds to the root: the project and resolv.conf (the overlay's upper layer)
mkdir -p -m 700 "$RUN/upper/root"; mkdir "$RUN/upper/root/project"
if git -C "$PROJECT" rev-parse --git-dir >/dev/null 2>&1; then
  [ -z "$(git -C "$PROJECT" status --porcelain)" ] ||
    say "note: uncommitted changes in $PROJECT are NOT copied (only HEAD)"
  git -C "$PROJECT" archive HEAD | tar -C "$RUN/upper/root/project" -x
else
  tar -C "$PROJECT" --exclude=.git --exclude=./build --exclude='./build-*' \
      --exclude='./cmake-build-*' --exclude=node_modules --exclude=.venv -cf - . |
    tar -C "$RUN/upper/root/project" -x
fi
if [ -n "${FRESH_SHARED:-}" ]; then   # a folder CI has beside the project
  mkdir "$RUN/upper/root/shared"; tar -C "$FRESH_SHARED" -cf - . | tar -C "$RUN/upper/root/shared" -x
  say "copied FRESH_SHARED to /root/shared (beside the project, as CI has it)"; fi
cp -L /etc/resolv.conf "$RUN/upper/etc/resolv.conf"
if [ -z "$OVERLAY" ]; then   # no overlayfs (or FRESH_KEEP): a full copy, ~15 s here
  tar -C "$RUN/root" --zstd -xf "$CACHE"; cp -a "$RUN/upper/." "$RUN/root/"; fi
say "root ready in $((SECONDS - T0)) s; running '$*' (timeout $TIMEOUT s; log $LOG)"

# PID 1 of the new namespaces: mount, chroot, run COMMAND (not exec'd, so this
# bash stays PID 1 and reaps orphans); when it exits the kernel kills the rest.
INNER='set -e; RUN=$1 BASE=$2; R=$RUN/root; shift 2
[ -z "$BASE" ] || mount -t overlay fresh -o \
  "lowerdir=$BASE,upperdir=$RUN/upper,workdir=$RUN/work" "$R"
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount --rbind /dev "$R/dev"
mount -t tmpfs -o mode=1777,nosuid,nodev shm "$R/dev/shm"
chroot "$R" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
  TERM=dumb LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  /bin/bash -lc "cd /root/project && exec \"\$@\"" fresh "$@"
exit $?'
START=$SECONDS
timeout -k 10 "$TIMEOUT" unshare --mount --pid --ipc --fork --kill-child --propagation \
  private /bin/bash -c "$INNER" inner "$RUN" "${OVERLAY:+$BASE}" "$@" </dev/null 3>&- 4>&- &
CHILD=$!   # timeout leads its own process group: kill that whole group on Ctrl-C/TERM
trap 'say "interrupted, killing the run"; kill -KILL -- -"$CHILD" 2>/dev/null' INT TERM HUP
rc=0; wait "$CHILD" || rc=$?
while kill -0 "$CHILD" 2>/dev/null; do rc=0; wait "$CHILD" || rc=$?; done
[ "${FRESH_KEEP:-0}" != 1 ] || say "kept the root: $RUN/root"
say "$* exit=$rc in $((SECONDS - START)) s"
exit "$rc"
