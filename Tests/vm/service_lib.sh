# Tests/vm/service_lib.sh — install and drive the shipped systemd units in a
# systemd-mode guest (the guest root is a throwaway overlay). Source after lib.sh.

# svc_install — units (ExecStart pointing at the built binaries), sysusers, config;
# creates the gestured user and group, reloads systemd.
svc_install() {
    vm_need_binaries
    command -v systemctl >/dev/null && [ -d /run/systemd/system ] || vm_skip "not booted with systemd (vm-mode)"
    # Scenarios share one boot: start from stopped units, whatever ran before.
    systemctl stop gestured.service gestured.socket 2>/dev/null || true
    systemctl reset-failed gestured.service gestured.socket 2>/dev/null || true
    rm -f /run/gestured/events.sock
    install -d /etc/gestured /etc/sysusers.d /usr/local/bin
    install -m 0755 "$VM_GESTURED" "$VM_GESTURECTL" /usr/local/bin/
    # Where make install puts it: gesturectl finds it from its own directory.
    [ -x "$VM_GESTURE_RUN" ] || vm_abort "no $VM_GESTURE_RUN beside gesturectl (swift build builds it)"
    install -d /usr/local/libexec/gestured
    install -m 0755 "$VM_GESTURE_RUN" /usr/local/libexec/gestured/
    sed 's|@BINDIR@|/usr/local/bin|g' "$VM_REPO/systemd/gestured.service" > /etc/systemd/system/gestured.service
    install -m 0644 "$VM_REPO/systemd/gestured.socket" /etc/systemd/system/gestured.socket
    install -m 0644 "$VM_REPO/systemd/gestured.sysusers" /etc/sysusers.d/gestured.conf
    install -m 0644 "$GESTURED_CONFIG" /etc/gestured/gestured.toml
    systemd-sysusers /etc/sysusers.d/gestured.conf || vm_abort "systemd-sysusers failed"
    systemctl daemon-reload
    vm_assert "user gestured exists" getent passwd gestured
    vm_assert "gestured is in group input" sh -c 'id -nG gestured | grep -qw input'
}

# svc_user NAME [GROUP] — an ordinary user, optionally in GROUP.
svc_user() {
    id "$1" >/dev/null 2>&1 || useradd -M -s /bin/sh "$1" || vm_abort "useradd $1 failed"
    [ -n "${2:-}" ] && usermod -aG "$2" "$1"
    return 0
}

# svc_as USER COMMAND… — run a command as USER with that user's groups.
svc_as() { _u=$1; shift; setpriv --reuid="$_u" --regid="$(id -g "$_u")" --init-groups -- "$@"; }

svc_active() { [ "$(systemctl is-active gestured.service)" = active ]; }

# svc_start — start the socket, wake the daemon with a status request, wait for active.
svc_start() {
    systemctl start gestured.socket || vm_abort "systemctl start gestured.socket failed"
    # The first request starts the daemon; under TCG on a busy host its first start
    # (binaries and libraries read over 9p) can outlast gesturectl's 5 s wait.
    vm_wait_until 60 sh -c '/usr/local/bin/gesturectl status > "$1" 2>&1' sh "$VM_SCRATCH/status.txt" \
        || vm_fail "gesturectl status failed: $(cat "$VM_SCRATCH/status.txt")"
    vm_wait_until 30 svc_active || { journalctl -u gestured --no-pager | tail -30 >&2; vm_abort "gestured.service not active"; }
}

svc_journal() { journalctl -u gestured.service --no-pager -o cat; }
