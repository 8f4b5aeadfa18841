#!/bin/sh
# vm-mode: systemd
# The shipped units under a real systemd (DESIGN.md, "Socket"): skipped until
# systemd/gestured.service exists. Installs the built binaries where the unit's
# ExecStart expects them and the default config as /etc/gestured/gestured.toml;
# then the service must start (for Type=notify that means READY=1 arrived), open a
# hotplugged touchscreen, stop within 10 s; a gestured.socket, if shipped, must give
# /run/gestured/events.sock mode 0660 and group gestured. `systemd-analyze security`
# must run on the unit; its exposure score goes into the verdict's notes.
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries
units=$VM_REPO/systemd
[ -r "$units/gestured.service" ] || vm_skip "no systemd/gestured.service in the repo yet"

exe=$(sed -n 's/^ExecStart=[-@:+!]*\([^ ]*\).*/\1/p' "$units/gestured.service" | head -n 1)
[ -n "$exe" ] || vm_abort "no ExecStart= in systemd/gestured.service"
install -D -m 0755 "$VM_GESTURED" "$exe"
install -D -m 0755 "$VM_GESTURECTL" "$(dirname "$exe")/gesturectl"
install -D -m 0644 "$GESTURED_CONFIG" /etc/gestured/gestured.toml
getent group gestured >/dev/null || groupadd --system gestured
for f in "$units"/*.service "$units"/*.socket; do
    [ -e "$f" ] && install -m 0644 "$f" /etc/systemd/system/
done
systemctl daemon-reload

if [ -r "$units/gestured.socket" ]; then
    vm_assert "gestured.socket starts" systemctl start gestured.socket
    vm_assert_eq "events.sock mode and group" "660 gestured" "$(stat -c '%a %G' /run/gestured/events.sock 2>&1)"
fi
vm_assert "gestured.service starts" timeout 90 systemctl start gestured.service \
    || vm_abort "gestured.service did not start: $(journalctl -u gestured.service --no-pager -n 20 2>&1 | tail -n 20)"
vm_assert_eq "gestured.service" active "$(systemctl is-active gestured.service)"
pid=$(systemctl show -p MainPID --value gestured.service)
echo "$pid" > "$VM_SCRATCH/daemon.pid"

vm_device_create atmel "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" || vm_abort "cannot create the touchscreen"
vm_daemon_wait_opens atmel 20

security=$(systemd-analyze security --no-pager gestured.service 2>&1)
vm_assert_eq "systemd-analyze security exit status" 0 "$?"
vm_note "systemd-analyze security: $(echo "$security" | grep -i 'overall exposure' | head -n 1)"

vm_assert "gestured.service stops within 10 s" timeout 10 systemctl stop gestured.service
vm_device_remove atmel
vm_finish
