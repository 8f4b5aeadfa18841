#!/bin/sh
# vm-mode: trixie
# vm-timeout: 2400
# vm-manual: yes
# The Debian packages on a fresh Debian trixie booted with systemd as PID 1
# (scripts/trixie-root.sh vm; the .debs from scripts/debian-build.sh, in
# GESTURED_DEB_DIR), as a user would have them:
#   1. `apt install ./gestured_*.deb`, offline: gestured.socket active at once, the
#      user made by sysusers, a played recording gives events to
#      `gesturectl subscribe` run by a member of group gestured.
#   2. A changed conffile (/etc/gestured/gestured.toml) survives an upgrade to a
#      rebuilt package (the same .deb repacked with a higher version).
#   3. `apt remove gestured` removes /run/gestured; `apt purge gestured` leaves no
#      unit, user, group or file of gestured's.
#   4. With gestured-lisgd installed, Debian's own Sxmo hook
#      (sxmo_hook_lisgdstart.sh and its user unit, taken unchanged from the
#      sxmo-utils .deb) run by an ordinary user's systemd user manager starts
#      `lisgd` — gestured's — and played phone strokes run
#      sxmo_hook_inputhandler.sh (a stub that records its arguments) with the
#      left edge's, a corner's and a slide's names.
# Set GESTURED_REQUIRE_DEB=1 (CI does) to fail instead of skipping without .debs.
. "$VM_REPO/Tests/vm/lib.sh"

debs=${GESTURED_DEB_DIR:-$VM_REPO/.build-deb}
main_deb=$(ls "$debs"/gestured_*.deb 2>/dev/null | head -n1)
lisgd_deb=$(ls "$debs"/gestured-lisgd_*.deb 2>/dev/null | head -n1)
if [ -z "$main_deb" ] || [ -z "$lisgd_deb" ]; then
    [ -n "${GESTURED_REQUIRE_DEB:-}" ] && vm_abort "no gestured_*.deb and gestured-lisgd_*.deb in $debs"
    vm_skip "no .debs in $debs (scripts/debian-build.sh makes them)"
fi
vm_note "packages: $(basename "$main_deb") $(basename "$lisgd_deb")"
export DEBIAN_FRONTEND=noninteractive
apt_offline() { apt-get -o Acquire::Languages=none -y "$@"; }

# --- 1. Install ---------------------------------------------------------------------------
cp "$main_deb" "$lisgd_deb" "$VM_SCRATCH/"
main_deb=$VM_SCRATCH/$(basename "$main_deb")
lisgd_deb=$VM_SCRATCH/$(basename "$lisgd_deb")
apt_offline install "$main_deb" > "$VM_SCRATCH/apt-install.log" 2>&1 \
    || vm_abort "apt install ./$(basename "$main_deb") failed: $(tail -n 20 "$VM_SCRATCH/apt-install.log")"
vm_assert_eq "gestured.socket after apt install" active "$(systemctl is-active gestured.socket)"
vm_assert_not "apt install says nothing of a unit it did not start" \
    grep -q 'disabled or a static unit' "$VM_SCRATCH/apt-install.log"
vm_assert_eq "gestured.socket enabled" enabled "$(systemctl is-enabled gestured.socket)"
vm_assert "sysusers made the user gestured" getent passwd gestured
vm_assert_eq "socket owner:group mode" "root:gestured 660" "$(stat -c '%U:%G %a' /run/gestured/events.sock)"
vm_assert "/etc/gestured/gestured.toml is a conffile" sh -c "dpkg-query -W -f='\${Conffiles}' gestured | grep -q /etc/gestured/gestured.toml"
vm_assert "the udev rule is installed" test -f /usr/lib/udev/rules.d/70-gestured-touchscreen.rules
vm_assert "gesture-run is in /usr/libexec/gestured" test -x /usr/libexec/gestured/gesture-run

member=alice
useradd -m -s /bin/sh -G gestured "$member" || vm_abort "useradd $member failed"
as_member() { setpriv --reuid="$member" --regid="$(id -g "$member")" --init-groups -- "$@"; }

vm_device_create atmel "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" || vm_abort "cannot create the touchscreen"
events=$VM_SCRATCH/subscribe.jsonl
as_member gesturectl subscribe > "$events" 2> "$VM_SCRATCH/subscribe.err" &
sub=$!; _vm_track $sub
# The first subscriber starts the daemon (socket activation); it has opened the
# touchscreen when the daemon's status lists it.
vm_wait_until 120 sh -c "[ \"\$(systemctl is-active gestured.service)\" = active ]" \
    || vm_abort "the subscription did not start gestured.service: $(cat "$VM_SCRATCH/subscribe.err")"
vm_wait_until 60 sh -c "gesturectl status 2>/dev/null | grep -q 'Atmel'" \
    || vm_fail "the daemon did not open the touchscreen: $(gesturectl status 2>&1 | head -n 20)"
vm_device_play atmel "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events"
vm_assert "a member of group gestured gets the taps" \
    vm_wait_until 60 grep -q '"state":"recognized"' "$events"
vm_note "subscriber got $(grep -c '"state":"recognized"' "$events") recognized events from the 9 fast taps"
kill "$sub" 2>/dev/null
vm_device_remove atmel

# --- 2. Upgrade keeps a changed conffile ---------------------------------------------------
conf=/etc/gestured/gestured.toml
printf '\n# changed by the administrator\n' >> "$conf"
changed=$(sha256sum < "$conf")
rebuilt=$VM_SCRATCH/rebuilt
rm -rf "$rebuilt"; dpkg-deb -R "$main_deb" "$rebuilt" || vm_abort "dpkg-deb -R failed"
old_version=$(sed -n 's/^Version: //p' "$rebuilt/DEBIAN/control")
sed -i "s/^Version: .*/Version: ${old_version}+rebuild1/" "$rebuilt/DEBIAN/control"
# Uncompressed: xz over 76 MB takes minutes under TCG.
dpkg-deb -Znone -b "$rebuilt" "$VM_SCRATCH/gestured_upgrade.deb" > /dev/null || vm_abort "dpkg-deb -b failed"
old_pid=$(systemctl show -P MainPID gestured.service)
vm_note "before the upgrade gestured.service is $(systemctl is-active gestured.service) (pid $old_pid)"
apt_offline install "$VM_SCRATCH/gestured_upgrade.deb" > "$VM_SCRATCH/apt-upgrade.log" 2>&1 \
    || vm_fail "the upgrade failed: $(tail -n 20 "$VM_SCRATCH/apt-upgrade.log")"
vm_assert_eq "installed version after the upgrade" "${old_version}+rebuild1" "$(dpkg-query -W -f='${Version}' gestured)"
vm_assert_eq "the changed conffile survives the upgrade" "$changed" "$(sha256sum < "$conf")"
vm_assert_eq "gestured.socket after the upgrade" active "$(systemctl is-active gestured.socket)"
if [ "$old_pid" != 0 ]; then
    vm_assert_not "the daemon of before the upgrade no longer runs" kill -0 "$old_pid"
fi

# --- 3. Remove, then purge, leaves nothing -----------------------------------------------
apt_offline remove gestured > "$VM_SCRATCH/apt-remove.log" 2>&1 || vm_fail "apt remove gestured failed"
vm_assert_not "no /run/gestured after remove" test -e /run/gestured
apt_offline purge gestured > "$VM_SCRATCH/apt-purge.log" 2>&1 || vm_fail "apt purge gestured failed"
vm_assert_not "purge says nothing of the group's members (it removes the group)" \
    grep -q 'not removed because it has other members' "$VM_SCRATCH/apt-purge.log"
vm_assert_eq "dpkg knows no gestured after purge" "" "$(dpkg-query -W -f='${Status}' gestured 2>/dev/null)"
left=$(find /etc /usr /var/lib /run -name '*gestured*' -not -path '/var/lib/dpkg/*' 2>/dev/null)
vm_assert_eq "no file of gestured's left after purge" "" "$left"
vm_assert_not "no user gestured after purge" getent passwd gestured
vm_assert_not "no group gestured after purge" getent group gestured
vm_assert_not "no group gestured-control after purge" getent group gestured-control
vm_assert_eq "no gestured unit known to systemd" "" \
    "$(systemctl list-unit-files --no-legend 'gestured*' 2>/dev/null)"

# --- 4. Debian's Sxmo runs its gestures through gestured ----------------------------------
apt_offline install "$main_deb" "$lisgd_deb" > "$VM_SCRATCH/apt-lisgd.log" 2>&1 \
    || vm_abort "apt install gestured gestured-lisgd failed: $(tail -n 20 "$VM_SCRATCH/apt-lisgd.log")"
vm_assert_eq "lisgd is gestured's" /usr/libexec/gestured/gesture-run "$(readlink -f "$(command -v lisgd)")"
sxmo_deb=$(ls /opt/gestured-test/sxmo-utils_*.deb 2>/dev/null | head -n1)
[ -n "$sxmo_deb" ] || vm_abort "no sxmo-utils .deb in /opt/gestured-test (scripts/trixie-root.sh vm fetches it)"
vm_note "Sxmo's hook from $(basename "$sxmo_deb")"
sx=$VM_SCRATCH/sxmo
dpkg-deb -x "$sxmo_deb" "$sx" || vm_abort "dpkg-deb -x $sxmo_deb failed"
hook=/usr/share/sxmo/default_hooks/sxmo_hook_lisgdstart.sh
unit=/usr/lib/systemd/user/sxmo_hook_lisgd.service
install -D -m 0755 "$sx$hook" "$hook"
install -D -m 0644 "$sx$unit" "$unit"
# Stubs for what the hook calls besides lisgd: they record their arguments.
stubs=/opt/sxmo-stubs
mkdir -p "$stubs"
printf '# stub: the hook sources this for its common definitions\n' > "$stubs/sxmo_common.sh"
calls=/var/tmp/sxmo-calls
mkdir -p "$calls"; chmod 1777 "$calls"
cat > "$stubs/sxmo_hook_inputhandler.sh" <<STUB
#!/bin/sh
read -r t _ < /proc/uptime
echo "\$t \$*" >> $calls/inputhandler.log
STUB
chmod 0755 "$stubs/sxmo_hook_inputhandler.sh" "$stubs/sxmo_common.sh"

strokes=$VM_REPO/Tests/fixtures/phone/strokes
vm_device_create panel "$strokes.desc" || vm_abort "cannot create the phone touchscreen"
ln -sf "$(vm_node panel)" /dev/input/touchscreen
sxmo=bob
useradd -m -s /bin/sh "$sxmo" || vm_abort "useradd $sxmo failed"
uid=$(id -u "$sxmo")
# As logind would for the seat's user (the uaccess tag of gestured's udev rule).
setfacl -m "u:$sxmo:r" "$(vm_node panel)" || vm_abort "setfacl failed"
mkdir -p "/etc/systemd/user/sxmo_hook_lisgd.service.d"
printf '[Service]\nEnvironment=PATH=%s:/usr/local/bin:/usr/bin:/bin\n' "$stubs" \
    > /etc/systemd/user/sxmo_hook_lisgd.service.d/stubs.conf
as_sxmo() { setpriv --reuid="$sxmo" --regid="$(id -g "$sxmo")" --init-groups -- \
    env HOME="/home/$sxmo" XDG_RUNTIME_DIR="/run/user/$uid" "$@"; }
systemctl start "user@$uid.service" || vm_abort "user@$uid.service did not start"
as_sxmo systemctl --user start sxmo_hook_lisgd.service || vm_abort "sxmo_hook_lisgd.service did not start"
lisgd_running() { pgrep -u "$sxmo" -x lisgd > /dev/null; }
vm_wait_until 60 lisgd_running || vm_abort "no lisgd process for $sxmo: $(as_sxmo systemctl --user status sxmo_hook_lisgd.service 2>&1 | tail -n 15)"
pid=$(pgrep -u "$sxmo" -x lisgd | head -n1)
vm_assert_eq "the lisgd Sxmo started is gestured's" /usr/libexec/gestured/gesture-run "$(readlink "/proc/$pid/exe")"
vm_wait_until 60 vm_pid_holds "$pid" "$(vm_node panel)" || vm_abort "lisgd never opened the touchscreen"

vm_device_play panel "$strokes.events"
size() { cat "$calls/inputhandler.log" 2>/dev/null | wc -c; }
last=-1; still=0
while [ "$still" -lt 3 ]; do
    now=$(size)
    if [ "$now" = "$last" ]; then still=$((still + 1)); else still=0; last=$now; fi
    sleep 1
done
as_sxmo systemctl --user stop sxmo_hook_lisgd.service
cp "$calls/inputhandler.log" "$VM_RESULTS/inputhandler.log" 2>/dev/null
count() { awk -v n="$1" '$2 == n' "$calls/inputhandler.log" 2>/dev/null | wc -l; }
vm_assert "a left-edge swipe ran 'sxmo_hook_inputhandler.sh rightleftedge'" test "$(count rightleftedge)" -ge 1
vm_assert "a corner swipe ran 'sxmo_hook_inputhandler.sh bottomrightcorner'" test "$(count bottomrightcorner)" -ge 1
# The slides up the left edge: one call per whole step, as labelled by the generator.
want=$(awk -F'\t' '$4 == "upleftedge" { s += $5 } END { print s + 0 }' "$strokes.strokes.tsv")
vm_assert_eq "the slides up the left edge ran upleftedge once per step" "$want" "$(count upleftedge)"
vm_note "inputhandler calls: $(wc -l < "$calls/inputhandler.log"); labelled strokes: $(awk -F'\t' 'NR > 1 && $4 != ""' "$strokes.strokes.tsv" | wc -l)"
vm_finish
