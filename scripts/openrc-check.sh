#!/bin/sh
# scripts/openrc-check.sh [DEB] — runs openrc/gestured.initd under Debian's OpenRC:
# a trixie root (scripts/trixie-root.sh vm, under an overlay so the cached root
# stays clean) with openrc and sysvinit-core instead of systemd-sysv (network),
# gestured installed from DEB (default .build-deb/gestured_*.deb, from
# scripts/debian-build.sh) and the service by `make install-openrc`, then in a
# chroot with its own mount namespace: start, status, the socket's owner and
# mode, the daemon's user and groups, a status request through the socket,
# reload (SIGHUP: same process), stop (no process, no socket, no pidfile).
# OpenRC is not PID 1 here (a chroot, not a booted guest): it supervises the
# service as `rc-service` does on a running system. Needs root.
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd -P)
deb=${1:-$(ls "$repo"/.build-deb/gestured_*.deb 2>/dev/null | head -n1)}
[ -n "$deb" ] && [ -f "$deb" ] || { echo "openrc-check: no gestured .deb (scripts/debian-build.sh makes it)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "openrc-check: needs root" >&2; exit 1; }
lower=$(scripts/trixie-root.sh vm)
work=$(mktemp -d /var/tmp/gestured-openrc.XXXXXX)
mkdir -p "$work/up" "$work/wk" "$work/root"
cleanup() {
    umount -l "$work/root" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$work/up,workdir=$work/wk" "$work/root"
r=$work/root
cp /etc/resolv.conf "$r/etc/resolv.conf"
cp "$deb" "$r/tmp/gestured.deb"
make -s install-openrc DESTDIR="$r" PREFIX=/usr SYSCONFDIR=/etc
cat > "$r/root/openrc-check.sh" <<'CHECK'
set -u
failed=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; failed=$((failed + 1)); }
check() { what=$1; shift; if "$@" > /dev/null 2>&1; then ok "$what"; else bad "$what"; fi; }
mount -t proc proc /proc
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq > /dev/null
apt-get install -y -qq --allow-remove-essential --no-install-recommends openrc sysvinit-core systemd-sysv- > /dev/null 2>&1 \
    || { echo "FAIL: cannot install openrc"; exit 1; }
apt-get install -y -qq /var/cache/gestured.deb > /dev/null 2>&1 || { echo "FAIL: cannot install the .deb"; exit 1; }
echo "openrc: $(openrc --version)"
# What OpenRC makes at boot (its state directory), then `rc-service` as on a running system.
mkdir -p /run/openrc && (cd /run/openrc && mkdir -p started starting stopping inactive wasinactive \
    coldplugged failed hotplugged daemons options exclusive scheduled tmp && touch softlevel)
rc-service gestured start > /tmp/start.log 2>&1 < /dev/null
check "rc-service gestured start" grep -q "Starting gestured ... \[ ok \]" /tmp/start.log
check "status: started" sh -c 'rc-service gestured status | grep -q started'
pid=$(cat /run/gestured.pid 2>/dev/null || echo none)
check "the pidfile names a gestured process" sh -c "[ \"\$(cat /proc/$pid/comm)\" = gestured ]"
i=0
while [ ! -S /run/gestured/events.sock ] && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "the socket: gestured:gestured, mode 660" sh -c '[ "$(stat -c "%U:%G %a" /run/gestured/events.sock)" = "gestured:gestured 660" ]'
check "runs as gestured" sh -c "grep -q '^Uid:[[:space:]]*$(id -u gestured)[[:space:]]' /proc/$pid/status"
check "with group input (initgroups)" sh -c "grep '^Groups:' /proc/$pid/status | grep -qw $(getent group input | cut -d: -f3)"
check "a status request through the socket" sh -c 'gesturectl status --socket /run/gestured/events.sock | grep -q "^gestured "'
rc-service gestured reload > /tmp/reload.log 2>&1 < /dev/null
check "reload" grep -q "\[ ok \]" /tmp/reload.log
check "the same process after reload" sh -c "[ \"\$(cat /run/gestured.pid)\" = $pid ] && kill -0 $pid"
check "it still answers after reload" sh -c 'gesturectl status --socket /run/gestured/events.sock | grep -q "^gestured "'
rc-service gestured stop > /tmp/stop.log 2>&1 < /dev/null
check "rc-service gestured stop" grep -q "\[ ok \]" /tmp/stop.log
check "no process after stop" sh -c "! kill -0 $pid 2>/dev/null"
check "no socket after stop" test ! -e /run/gestured/events.sock
check "no pidfile after stop" test ! -e /run/gestured.pid
echo "failed: $failed"
[ "$failed" -eq 0 ]
CHECK
mv "$r/tmp/gestured.deb" "$r/var/cache/gestured.deb"
rc=0
# The service's logger would hold a pipe open: its output goes to a file.
unshare -m -p -f chroot "$r" sh /root/openrc-check.sh > "$work/check.log" 2>&1 || rc=$?
cat "$work/check.log"
exit "$rc"
