#!/bin/sh
# vm-mode: systemd
# The shipped units under real systemd: sysusers makes the user, the socket unit
# owns /run/gestured/events.sock (root:gestured 0660), the first connection starts
# the daemon by socket activation, it reports READY (active) running as gestured,
# and the unit's security exposure is printed.
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

svc_install
systemctl start gestured.socket || vm_abort "cannot start gestured.socket"
vm_assert_eq "socket owner:group mode" "root:gestured 660" "$(stat -c '%U:%G %a' /run/gestured/events.sock)"
vm_assert_eq "service before any connection" inactive "$(systemctl is-active gestured.service)"
svc_start
vm_assert_eq "service after a connection (READY=1 seen)" active "$(systemctl is-active gestured.service)"
pid=$(systemctl show -P MainPID gestured.service)
vm_assert_eq "daemon runs as" gestured "$(ps -o user= -p "$pid" | tr -d ' ')"
vm_assert "journal says socket activation" sh -c "journalctl -u gestured --no-pager -o cat | grep -q 'socket activation'"
vm_assert "status names the socket's STATUS=" sh -c "systemctl show -P StatusText gestured.service | grep -q recognizers"
vm_assert "gesturectl status lists recognizers" grep -q '^recognizers: ' "$VM_SCRATCH/status.txt"

# Watchdog pings come from the loop: still active after more than WatchdogSec/2 idle.
sleep 20
vm_assert_eq "still active after 20 s idle (watchdog)" active "$(systemctl is-active gestured.service)"
vm_assert_eq "no restarts" 0 "$(systemctl show -P NRestarts gestured.service)"

score=$(systemd-analyze security gestured.service 2>/dev/null | tail -n1)
vm_note "systemd-analyze security gestured.service: $score"
offline=$(systemd-analyze security --offline=yes /etc/systemd/system/gestured.service 2>/dev/null | tail -n1)
vm_note "offline: $offline"

systemctl stop gestured.service
vm_assert "STOPPING then inactive" sh -c "[ \"\$(systemctl is-active gestured.service)\" = inactive ]"
vm_finish
