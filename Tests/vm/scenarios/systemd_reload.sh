#!/bin/sh
# vm-mode: systemd
# Reloads under systemd: a broken config (SIGHUP via systemctl reload, and an edit
# saved by rename) is refused with file:line and the running config stays; a good
# edit is applied. A file refused at start leaves the service running (recognizing
# nothing, its socket up) until the file is fixed.
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

svc_install
svc_start
# Scenarios share one boot and its journal: only this scenario's lines count.
since=$(date '+%Y-%m-%d %H:%M:%S')
journal_here() { journalctl -u gestured.service --no-pager -o cat --since "$since"; }
recognizers() { gesturectl status --json | jq -c '[.recognizers[].name]'; }
before=$(recognizers)

printf '\n[recognizer.broken]\nkind = "swirl"\n' >> /etc/gestured/gestured.toml
systemctl reload gestured.service
# systemctl reload returns once the signal is sent; the daemon's answer is in the journal.
kept() { journal_here | grep -q 'keeping the previous configuration'; }
vm_wait_until 60 kept
vm_assert_eq "active after a broken reload" active "$(systemctl is-active gestured.service)"
named() { journal_here | grep -q 'gestured.toml:[0-9]*: .*kind'; }
vm_assert "journal names file:line of the error" named
vm_assert "journal says the old config stays" kept
vm_assert_eq "recognizers unchanged" "$before" "$(recognizers)"

# An editor's save: new file, renamed over the old one; inotify sees it.
grep -v 'recognizer.broken\|swirl' /etc/gestured/gestured.toml > /etc/gestured/.new.toml
printf '\n[recognizer.extra_tap]\nkind = "tap"\ntaps = 3\n' >> /etc/gestured/.new.toml
mv /etc/gestured/.new.toml /etc/gestured/gestured.toml
vm_wait_until 10 sh -c "gesturectl status --json | jq -e '.recognizers | map(.name) | index(\"extra_tap\")' >/dev/null" \
    || vm_fail "the renamed-in config was not applied: $(svc_journal | tail -5)"
vm_assert_eq "no restarts" 0 "$(systemctl show -P NRestarts gestured.service)"

# A typo, then a restart (or a reboot): the service runs recognizing nothing and
# says why, the socket stays up, and fixing the file brings the recognizers back.
cp /etc/gestured/gestured.toml /etc/gestured/.good.toml
printf '\n[recognizer.typo\nkind = "tap"\n' >> /etc/gestured/gestured.toml
systemctl restart gestured.service
refused() { systemctl show -P StatusText gestured.service | grep -q '^config refused, recognizing nothing until it is fixed: .*gestured.toml:[0-9]*'; }
vm_wait_until 60 refused || vm_fail "no refusal in the status: $(systemctl show -P StatusText gestured.service); $(svc_journal | tail -5)"
vm_assert_eq "active with a refused file" active "$(systemctl is-active gestured.service)"
vm_assert_eq "the socket stays up" active "$(systemctl is-active gestured.socket)"
vm_assert_eq "recognizing nothing" "[]" "$(recognizers)"
vm_assert "gesturectl status says why" sh -c "gesturectl status | grep -q '^config refused at start, recognizing nothing until it is fixed: .*gestured.toml:[0-9]*'"
mv /etc/gestured/.good.toml /etc/gestured/gestured.toml
vm_wait_until 30 sh -c "gesturectl status --json | jq -e '.recognizers | map(.name) | index(\"extra_tap\")' >/dev/null" \
    || vm_fail "the fixed config was not applied: $(svc_journal | tail -5)"
vm_assert_eq "no restarts after the typo" 0 "$(systemctl show -P NRestarts gestured.service)"

# A config anyone may write would let anyone decide everyone's gestures: a
# reload refuses it and keeps what runs; made root's alone again, it loads.
before=$(recognizers)
since=$(date '+%Y-%m-%d %H:%M:%S')
chmod 666 /etc/gestured/gestured.toml
printf '\n[recognizer.planted]\nkind = "tap"\n' >> /etc/gestured/gestured.toml
systemctl reload gestured.service
writable() { journalctl -u gestured.service --since "$since" --no-pager | grep -q 'gestured.toml can be written by anyone (mode 0666, owner root): whoever may change it decides every user.s gestures'; }
vm_wait_until 30 writable || vm_fail "no refusal of a world-writable config: $(svc_journal | tail -5)"
vm_assert_eq "the planted recognizer is not loaded" "$before" "$(recognizers)"
vm_assert "gesturectl check says gestured would refuse it" sh -c "gesturectl check /etc/gestured/gestured.toml 2>&1 | grep -q '^gesturectl check: gestured would refuse it: /etc/gestured/gestured.toml can be written by anyone'"
chmod 644 /etc/gestured/gestured.toml
vm_assert "gesturectl check: ok again" sh -c "gesturectl check /etc/gestured/gestured.toml | grep -q '^/etc/gestured/gestured.toml: ok'"
# No reload: the watcher sees the mode change (IN_ATTRIB) and reads the file again.
vm_wait_until 30 sh -c "gesturectl status --json | jq -e '.recognizers | map(.name) | index(\"planted\")' >/dev/null" \
    || vm_fail "the config made root's alone was not applied: $(svc_journal | tail -5)"

# A link to a file the service cannot see (ProtectHome hides /home): refused,
# saying so, not the built-in config run in silence.
mkdir -p /home/alice && cp /etc/gestured/gestured.toml /home/alice/gestured.toml
mv /etc/gestured/gestured.toml /etc/gestured/.kept.toml
ln -s /home/alice/gestured.toml /etc/gestured/gestured.toml
systemctl restart gestured.service
vm_wait_until 60 sh -c "systemctl show -P StatusText gestured.service | grep -q '^config refused, recognizing nothing until it is fixed: /etc/gestured/gestured.toml'" \
    || vm_fail "a link to a hidden file was not refused: $(systemctl show -P StatusText gestured.service); $(svc_journal | tail -5)"
vm_assert_eq "recognizing nothing, not the built-in config" "[]" "$(recognizers)"
rm /etc/gestured/gestured.toml && mv /etc/gestured/.kept.toml /etc/gestured/gestured.toml
vm_wait_until 30 sh -c "gesturectl status --json | jq -e '.recognizers | map(.name) | index(\"planted\")' >/dev/null" \
    || vm_fail "the file put back was not loaded: $(svc_journal | tail -5)"
vm_finish
