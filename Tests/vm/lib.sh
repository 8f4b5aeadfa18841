# Tests/vm/lib.sh — helpers for VM scenarios (POSIX sh). Source it first:
#
#     . "$VM_REPO/Tests/vm/lib.sh"
#
# The guest runner sets VM_REPO (the repo, same path as on the host), VM_RESULTS
# (this scenario's directory on the writable results share), VM_SCRATCH (a tmpfs
# directory in the guest), VM_SCENARIO, VM_MODE, GESTURED_BIN_DIR, GESTURED_CONFIG.
#
# A scenario ends with vm_finish (PASS unless an assertion failed) or vm_skip REASON.
# Assertions record a failure with a message and carry on, so one run reports every
# broken thing; vm_abort ends the scenario at once (for failures later steps depend on).
# Verdict file: $VM_RESULTS/verdict, first line PASS | FAIL | SKIP, then the details.
#
# Devices are named by a handle of your choosing (atmel, kbd…); their state lives
# in files under $VM_SCRATCH/dev/HANDLE, so helpers also work from subshells.

set -u
: "${VM_REPO:?run me through Tests/vm/run.sh}" "${VM_RESULTS:?run me through Tests/vm/run.sh}"
VM_SCENARIO=${VM_SCENARIO:-$(basename "$0" .sh)}
VM_SCRATCH=${VM_SCRATCH:-/var/tmp/vm/$VM_SCENARIO}
VM_FIXTURES=$VM_REPO/Tests/fixtures/recordings
VM_DEVICES=$VM_REPO/Tests/vm/devices
GESTURED_BIN_DIR=${GESTURED_BIN_DIR:-$VM_REPO/.build/debug}
GESTURED_CONFIG=${GESTURED_CONFIG:-$VM_REPO/config/gestured.toml}
mkdir -p "$VM_SCRATCH" "$VM_RESULTS"
_vm_details=$VM_SCRATCH/.details
: > "$_vm_details"

# --- reporting -----------------------------------------------------------------------

# Under TCG every exec costs ~0.1 s (jq ~0.6 s), so the helpers that poll or log use
# shell builtins where they can; the clock is the guest's uptime, read without a fork.
vm_uptime() { read -r _vm_up _vm_idle < /proc/uptime; echo "$_vm_up"; }
vm_log() { read -r _vm_up _vm_idle < /proc/uptime; echo "[$_vm_up] $*" >&2; }

# vm_note MESSAGE — a line for the verdict's details (and the log).
vm_note() { vm_log "note: $*"; echo "note: $*" >> "$_vm_details"; }

# vm_fail MESSAGE — record a failed assertion; the scenario goes on.
vm_fail() { vm_log "FAIL: $*"; echo "FAIL: $*" >> "$_vm_details"; }

vm_failures() { grep -c '^FAIL: ' "$_vm_details"; }

# vm_assert_eq WHAT EXPECTED ACTUAL
vm_assert_eq() {
    if [ "$2" = "$3" ]; then vm_log "ok: $1 = $3"; return 0; fi
    vm_fail "$1: expected '$2', got '$3'"
    return 1
}

# vm_assert_ne WHAT UNWANTED ACTUAL
vm_assert_ne() {
    if [ "$2" != "$3" ]; then vm_log "ok: $1 = '$3' (not '$2')"; return 0; fi
    vm_fail "$1: must not be '$2'"
    return 1
}

# vm_assert WHAT COMMAND… — the command must succeed.
vm_assert() {
    _what=$1; shift
    if "$@"; then vm_log "ok: $_what"; return 0; fi
    vm_fail "$_what (failed: $*)"
    return 1
}

# vm_assert_not WHAT COMMAND… — the command must fail.
vm_assert_not() {
    _what=$1; shift
    if "$@"; then vm_fail "$_what (succeeded: $*)"; return 1; fi
    vm_log "ok: $_what"
    return 0
}

_vm_verdict() {
    { echo "$1"; [ $# -gt 1 ] && echo "$2"; cat "$_vm_details"; } > "$VM_RESULTS/verdict.tmp"
    mv "$VM_RESULTS/verdict.tmp" "$VM_RESULTS/verdict"
}

# Keep what the scenario produced next to its verdict, for whoever reads a failure.
_vm_keep_scratch() {
    mkdir -p "$VM_RESULTS/scratch"
    cp -r "$VM_SCRATCH/." "$VM_RESULTS/scratch/" 2>/dev/null
}

# vm_finish — write the verdict (PASS unless something failed) and exit.
vm_finish() {
    _vm_cleanup
    _vm_keep_scratch
    _n=$(vm_failures)
    if [ "$_n" -eq 0 ]; then _vm_verdict PASS; else _vm_verdict FAIL; fi
    _vm_finished=1
    vm_log "verdict: $(head -n1 "$VM_RESULTS/verdict") ($_n failed assertions)"
    exit 0
}

# vm_skip REASON — nothing to test here (yet); not a pass.
vm_skip() {
    _vm_cleanup
    _vm_verdict SKIP "$*"
    _vm_finished=1
    vm_log "verdict: SKIP: $*"
    exit 0
}

# vm_abort MESSAGE — fail and stop now.
vm_abort() {
    vm_fail "$*"
    vm_finish
}

_vm_finished=0
_vm_on_exit() {
    _rc=$?
    [ "$_vm_finished" = 1 ] && return
    vm_fail "scenario stopped before vm_finish (exit status $_rc)"
    _vm_cleanup
    _vm_keep_scratch
    _vm_verdict FAIL
}
trap _vm_on_exit EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# Background helpers (devices, players, readers, daemons) to stop when done.
_vm_bg=$VM_SCRATCH/.bg
: > "$_vm_bg"
_vm_track() { echo "$1" >> "$_vm_bg"; }
_vm_cleanup() {
    # The udev database entries of the devices still there (see vm_device_create).
    _vm_dbs=
    for _n in "$VM_SCRATCH"/dev/*/node; do
        [ -f "$_n" ] && _vm_dbs="$_vm_dbs $(vm_udev_db "$(cat "$_n")")"
    done
    # Reverse order: readers and daemons before the devices they read. A helper run
    # as a shell function in the background (`svc_as USER CMD &`) is a subshell
    # whose command is its child: the children go too, or they outlive the scenario.
    for _p in $(tac "$_vm_bg" 2>/dev/null); do pkill -P "$_p" 2>/dev/null; kill "$_p" 2>/dev/null; done
    for _p in $(tac "$_vm_bg" 2>/dev/null); do
        _vm_wait_gone "$_p" 5 || kill -KILL "$_p" 2>/dev/null
    done
    : > "$_vm_bg"
    # The devices' remove events are udev's before the next scenario begins.
    udevadm settle --timeout=30 2>/dev/null || :
    for _db in $_vm_dbs; do vm_wait_until 30 _vm_absent "$_db" || :; done
}

# --- small utilities ---------------------------------------------------------------------

# vm_wait_until SECONDS COMMAND… — poll (every 0.1 s) until the command succeeds.
vm_wait_until() {
    read -r _vm_up _vm_idle < /proc/uptime
    _end=$(( ${_vm_up%.*} + $1 )); shift
    while ! "$@"; do
        read -r _vm_up _vm_idle < /proc/uptime
        [ "${_vm_up%.*}" -ge "$_end" ] && return 1
        sleep 0.1
    done
    return 0
}

_vm_pid_gone() {
    kill -0 "$1" 2>/dev/null || return 0
    read -r _vm_s1 _vm_s2 _vm_state _vm_rest < "/proc/$1/stat" 2>/dev/null || return 0
    [ "$_vm_state" = Z ]
}
# _vm_wait_gone PID SECONDS — wait for a process to exit (reaps it if it is our child).
_vm_wait_gone() {
    vm_wait_until "$2" _vm_pid_gone "$1" || return 1
    wait "$1" 2>/dev/null
    return 0
}

vm_udev_settle() { udevadm settle --timeout=30 || vm_fail "udevadm settle timed out"; }

# vm_player_start — a panel played through its own uinput descriptor
# (tools/uinput_player.py: the kernel drops what evemu-play writes into a grabbed
# node), told what to play on descriptor 7; sets $node to the panel's event node.
# vm_player_play FILE plays a recording and waits until the player is done with it
# (a file is played once per request: give each replay its own copy).
vm_player_start() {
    mkfifo "$VM_SCRATCH/player.in"
    python3 "$VM_REPO/Tests/vm/tools/uinput_player.py" "$VM_SCRATCH/played.times" \
        < "$VM_SCRATCH/player.in" > "$VM_SCRATCH/player.out" 2> "$VM_SCRATCH/player.err" &
    _vm_track $!
    exec 7> "$VM_SCRATCH/player.in"
    vm_wait_until 30 grep -q '^event' "$VM_SCRATCH/player.out" ||
        vm_abort "the player made no panel: $(cat "$VM_SCRATCH/player.err")"
    node=/dev/input/$(head -n1 "$VM_SCRATCH/player.out")
    vm_udev_settle
}
_vm_player_done() { grep -q "^done $1\$" "$VM_SCRATCH/player.out"; }
vm_player_play() {
    vm_log "playing $(basename "$1")"
    echo "$1" >&7
    vm_wait_until 60 _vm_player_done "$1" || vm_fail "the player did not finish $(basename "$1")"
}

# vm_udev_prop NODE KEY — the udev property's value, empty when unset.
vm_udev_prop() { udevadm info --query=property --name="$1" 2>/dev/null | sed -n "s/^$2=//p"; }
_vm_udev_has() { [ "$(vm_udev_prop "$1" "$2")" = "$3" ]; }
# _vm_udev_fresh NODE USEC — udev has processed the node's device, created at USEC or later.
_vm_udev_fresh() {
    _vm_init=$(vm_udev_prop "$1" USEC_INITIALIZED)
    [ -n "$_vm_init" ] && [ "$_vm_init" -ge "$2" ] && _vm_udev_has "$1" ID_INPUT 1
}

_vm_absent() { ! test -e "$1"; }

# vm_udev_db NODE — udev's database entry for an input event node that is there
# (/run/udev/data/cMAJOR:MINOR), nothing when the node's device is gone.
vm_udev_db() {
    _vm_devno=$(cat "/sys/class/input/$(basename "$1")/dev" 2>/dev/null) && echo "/run/udev/data/c$_vm_devno"
}

# vm_fd_count PID — number of open file descriptors.
vm_fd_count() { set -- /proc/"$1"/fd/*; [ -e "$1" ] && echo $# || echo 0; }

# vm_pid_holds PID PATH — does the process have PATH open?
vm_pid_holds() {
    for _fd in /proc/"$1"/fd/*; do
        [ "$_fd" -ef "$2" ] && return 0    # same device and inode as the node
    done
    return 1
}

# --- uinput devices (evemu) ----------------------------------------------------------------

_vm_dev() { echo "$VM_SCRATCH/dev/$1"; }
vm_node() { cat "$(_vm_dev "$1")/node"; }
vm_device_pid() { cat "$(_vm_dev "$1")/pid"; }

# vm_device_create HANDLE DESC [--no-settle] — create a uinput device from an evemu
# description, wait for its /dev/input/eventN and for udev to have processed it
# (--no-settle: only for the node; about a second less under TCG).
vm_device_create() {
    _d=$(_vm_dev "$1")
    rm -rf "$_d"; mkdir -p "$_d"
    [ -r "$2" ] || { vm_fail "device $1: no description $2"; return 1; }
    # The database entry must be this device's, not one a removed device of the same
    # number left behind: its USEC_INITIALIZED (CLOCK_MONOTONIC, which is /proc/uptime's
    # clock in a guest that never suspends) is not older than this.
    _vm_born=$(awk '{ printf "%d", $1 * 1000000 }' /proc/uptime)
    # evemu-device prints "NAME: /dev/input/eventN" and then holds the device until killed.
    stdbuf -oL evemu-device "$2" > "$_d/out" 2>&1 &
    _pid=$!
    echo "$_pid" > "$_d/pid"
    _vm_track "$_pid"
    if ! vm_wait_until 30 grep -q '/dev/input/event[0-9]' "$_d/out"; then
        vm_fail "device $1: evemu-device $2 printed no event node: $(head -c 300 "$_d/out")"
        return 1
    fi
    _node=$(grep -o '/dev/input/event[0-9]*' "$_d/out" | head -n1)
    echo "$_node" > "$_d/node"
    vm_wait_until 10 test -c "$_node" || { vm_fail "device $1: $_node never appeared"; return 1; }
    [ "${3:-}" = --no-settle ] && return 0
    vm_udev_settle
    # settle only covers events udevd has already received; wait for the database entry.
    vm_wait_until 30 _vm_udev_fresh "$_node" "$_vm_born" \
        || vm_note "device $1: udev wrote no database entry for $_node with ID_INPUT=1 within 30 s"
    vm_log "device $1: $_node ($(cat "/sys/class/input/$(basename "$_node")/device/name" 2>/dev/null))"
    return 0
}

# vm_device_play HANDLE EVENTS — play an evemu recording into the device, with its timing.
vm_device_play() {
    _node=$(vm_node "$1")
    vm_log "device $1: playing $(basename "$2")"
    evemu-play "$_node" < "$2" || { vm_fail "evemu-play $(basename "$2") into $_node failed"; return 1; }
}

# vm_device_play_bg HANDLE EVENTS — same, in the background; vm_device_play_wait HANDLE waits.
vm_device_play_bg() {
    _d=$(_vm_dev "$1")
    vm_log "device $1: playing $(basename "$2") in the background"
    evemu-play "$(vm_node "$1")" < "$2" > "$_d/play.out" 2>&1 &
    echo $! > "$_d/play.pid"
    _vm_track $!
}
vm_device_play_wait() {
    _p=$(cat "$(_vm_dev "$1")/play.pid")
    wait "$_p" 2>/dev/null
}

# vm_device_remove HANDLE — kill its evemu-device (the kernel removes the device) and
# wait for the node to go and udev to settle.
vm_device_remove() {
    _d=$(_vm_dev "$1")
    _pid=$(cat "$_d/pid")
    _node=$(cat "$_d/node" 2>/dev/null)
    # udev's database entry goes with the remove event; a later device of the same
    # number must not find it (see vm_device_create).
    _db=
    [ -n "$_node" ] && _db=$(vm_udev_db "$_node")
    kill "$_pid" 2>/dev/null
    _vm_wait_gone "$_pid" 10 || { vm_fail "device $1: evemu-device $_pid did not exit"; kill -KILL "$_pid"; }
    if [ -n "$_node" ]; then
        vm_wait_until 10 _vm_absent "$_node" || vm_fail "device $1: $_node still there after removal"
    fi
    vm_udev_settle
    if [ -n "$_db" ]; then
        vm_wait_until 30 _vm_absent "$_db" || vm_note "device $1: udev kept $_db 30 s after removal"
    fi
}

# vm_recording_touches EVENTS — "BEGINS ENDS": touches that begin and end in an evemu
# recording, derived from ABS_MT_SLOT / ABS_MT_TRACKING_ID as the kernel protocol says
# (a new tracking ID in a slot that still holds one ends the old touch).
vm_recording_touches() {
    awk '
        BEGIN { slot = 0 }
        $1 == "E:" && $3 == "0003" && $4 == "002f" { slot = $5 + 0 }
        $1 == "E:" && $3 == "0003" && $4 == "0039" {
            id = $5 + 0
            if (id < 0) { if (live[slot]) { ends++; live[slot] = 0 } }
            else if (!live[slot]) { begins++; live[slot] = 1; ids[slot] = id }
            else if (ids[slot] != id) { ends++; begins++; ids[slot] = id }
        }
        END { printf "%d %d\n", begins, ends }' "$1"
}

# --- libinput debug-events as the reference reader ---------------------------------------------

# vm_libinput_start HANDLE — `libinput debug-events --device NODE` in the background.
vm_libinput_start() {
    _d=$(_vm_dev "$1")
    stdbuf -oL libinput debug-events --device "$(vm_node "$1")" > "$_d/libinput.log" 2>&1 &
    echo $! > "$_d/libinput.pid"
    _vm_track $!
    vm_wait_until 30 grep -q DEVICE_ADDED "$_d/libinput.log" \
        || { vm_fail "libinput debug-events never added $(vm_node "$1"): $(head -c 300 "$_d/libinput.log")"; return 1; }
}

# vm_libinput_count HANDLE EVENT — lines of that event type (TOUCH_DOWN, TOUCH_UP…).
vm_libinput_count() { grep -c "[[:space:]]$2[[:space:]]" "$(_vm_dev "$1")/libinput.log"; }

# vm_libinput_wait HANDLE EVENT N SECONDS — wait until at least N such lines.
_vm_libinput_has() { [ "$(vm_libinput_count "$1" "$2")" -ge "$3" ]; }
vm_libinput_wait() { vm_wait_until "$4" _vm_libinput_has "$1" "$2" "$3"; }

vm_libinput_stop() {
    _p=$(cat "$(_vm_dev "$1")/libinput.pid")
    kill -INT "$_p" 2>/dev/null
    _vm_wait_gone "$_p" 5 || kill -KILL "$_p" 2>/dev/null
}

# --- the daemon and gesturectl -------------------------------------------------------------

VM_GESTURED=$GESTURED_BIN_DIR/gestured
VM_GESTURECTL=$GESTURED_BIN_DIR/gesturectl
# What gesturectl execs for lisgd and actions, found beside it (swift build puts it there).
VM_GESTURE_RUN=$GESTURED_BIN_DIR/gesture-run
_vm_daemon_out=$VM_SCRATCH/daemon.out
_vm_daemon_err=$VM_SCRATCH/daemon.err

# vm_need_binaries — SKIP unless gestured, gesturectl and gesture-run are built and a config exists.
vm_need_binaries() {
    for _b in "$VM_GESTURED" "$VM_GESTURECTL" "$VM_GESTURE_RUN"; do
        [ -x "$_b" ] || vm_skip "no $_b (build it: swift build; or set GESTURED_BIN_DIR)"
    done
    [ -r "$GESTURED_CONFIG" ] || vm_skip "no config at $GESTURED_CONFIG (set GESTURED_CONFIG)"
}

vm_daemon_pid() { cat "$VM_SCRATCH/daemon.pid"; }

# Does PID have a uevent netlink socket bound to a multicast group (a udev monitor)?
_vm_has_uevent_monitor() {
    # /proc/net/netlink: sk Eth Pid Groups Rmem Wmem Dump Locks Drops Inode; Eth 15 = KOBJECT_UEVENT
    ls -l "/proc/$1/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' \
        | awk 'NR == FNR { mine[$1] = 1; next } $2 == 15 && $4 != "00000000" && ($10 in mine) { found = 1 }
               END { exit !found }' - /proc/net/netlink
}

# vm_daemon_start [ARG…] — start `gestured --stdout --config FILE [ARG…]` in the
# background and wait until it listens to udev (a uevent netlink socket with a
# multicast group).
vm_daemon_start() {
    : > "$_vm_daemon_out"; : > "$_vm_daemon_err"
    vm_log "starting $VM_GESTURED --stdout --config $GESTURED_CONFIG $*"
    "$VM_GESTURED" --stdout --config "$GESTURED_CONFIG" "$@" > "$_vm_daemon_out" 2> "$_vm_daemon_err" &
    echo $! > "$VM_SCRATCH/daemon.pid"
    _vm_track $!
    if ! vm_wait_until 60 _vm_has_uevent_monitor "$(vm_daemon_pid)"; then
        if _vm_pid_gone "$(vm_daemon_pid)"; then
            vm_fail "gestured exited at startup: $(tail -c 400 "$_vm_daemon_err")"
        else
            vm_fail "gestured did not open a udev monitor within 60 s"
        fi
        return 1
    fi
    vm_log "gestured $(vm_daemon_pid) is listening to udev"
}

vm_daemon_alive() { ! _vm_pid_gone "$(vm_daemon_pid)"; }

# vm_daemon_stop — SIGTERM; the daemon must exit within 10 s (and have printed only JSON).
vm_daemon_stop() {
    vm_daemon_check_stdout
    _p=$(vm_daemon_pid)
    if _vm_pid_gone "$_p"; then vm_fail "gestured had already exited: $(tail -c 400 "$_vm_daemon_err")"; return 1; fi
    kill -TERM "$_p"
    if ! _vm_wait_gone "$_p" 10; then
        vm_fail "gestured did not exit within 10 s of SIGTERM"
        kill -KILL "$_p"; _vm_wait_gone "$_p" 5
        return 1
    fi
}

# vm_daemon_mark — the current line count of the daemon's stdout, for vm_daemon_events FROM.
vm_daemon_mark() { wc -l < "$_vm_daemon_out"; }

# vm_daemon_events [FROM] — gesture events (objects with kind and state) the daemon
# printed after line FROM, one compact JSON object per line. Other lines (hello…) are skipped.
vm_daemon_events() {
    tail -n +"$(( ${1:-0} + 1 ))" "$_vm_daemon_out" \
        | jq -c -R 'fromjson? | select(type == "object" and has("kind") and has("state"))'
}

# vm_daemon_check_stdout — every line the daemon printed on stdout must be JSON.
vm_daemon_check_stdout() {
    _bad=$(jq -R -r 'select((try (fromjson | type) catch "none") != "object")' < "$_vm_daemon_out" | wc -l)
    vm_assert_eq "lines on gestured's stdout that are not JSON objects" 0 "$_bad" \
        || vm_note "first of them: $(jq -R -r 'select((try (fromjson | type) catch "none") != "object")' < "$_vm_daemon_out" | head -n 1)"
}

# vm_daemon_wait_quiet SECONDS MAX — wait until the daemon printed nothing for SECONDS
# (pending timers — double-tap windows — have fired), at most MAX seconds.
vm_daemon_wait_quiet() {
    read -r _vm_up _vm_idle < /proc/uptime
    _since=${_vm_up%.*}; _end=$(( _since + $2 ))
    _last=$(vm_daemon_mark)
    while [ "${_vm_up%.*}" -lt "$_end" ]; do
        sleep 0.2
        _n=$(vm_daemon_mark)
        read -r _vm_up _vm_idle < /proc/uptime
        if [ "$_n" != "$_last" ]; then _last=$_n; _since=${_vm_up%.*}
        elif [ $(( ${_vm_up%.*} - _since )) -ge "$1" ]; then return 0
        fi
    done
    return 1
}

# vm_daemon_wait_for JQ_CONDITION SECONDS [FROM] — wait for an event matching the condition,
# e.g. '.kind == "pan" and .state == "began"'.
_vm_daemon_has() {
    # jq is slow under TCG: only look again when the daemon has printed more.
    _n=$(vm_daemon_mark)
    [ "$_n" = "${_vm_has_seen:-}" ] && return 1
    _vm_has_seen=$_n
    vm_daemon_events "$2" | jq -e -s "any(.[]; $1)" >/dev/null 2>&1
}
vm_daemon_wait_for() { _vm_has_seen=; vm_wait_until "$2" _vm_daemon_has "$1" "${3:-0}"; }

# vm_daemon_holds NODE — does the daemon have NODE open?
vm_daemon_holds() { vm_pid_holds "$(vm_daemon_pid)" "$1"; }

# vm_daemon_wait_opens HANDLE [SECONDS] — the daemon must open the device's node (hotplug).
vm_daemon_wait_opens() {
    vm_wait_until "${2:-20}" vm_daemon_holds "$(vm_node "$1")" && return 0
    vm_fail "gestured did not open $(vm_node "$1") (device $1) within ${2:-20} s"
    return 1
}

# vm_daemon_fds — the daemon's open files, one "fd -> target" a line (for failure details).
vm_daemon_fds() { ls -l "/proc/$(vm_daemon_pid)/fd" | awk 'NR > 1 { print $(NF-2), $(NF-1), $NF }' | sort -n; }

# vm_continuous_open EVENTS_FILE — names of continuous gestures (began) with no ended or
# cancelled after them, one a line; empty when every began gesture was closed.
vm_continuous_open() {
    jq -r -s 'reduce .[] as $e ({}; if $e.state == "began" then .[$e.name] = true
              elif $e.state == "ended" or $e.state == "cancelled" then del(.[$e.name]) else . end)
              | keys[]' < "$1"
}

# vm_replay DESC EVENTS OUT — `gesturectl replay` of a recording, gesture events to OUT.
vm_replay() {
    if ! "$VM_GESTURECTL" replay --config "$GESTURED_CONFIG" --desc "$1" "$2" > "$3.raw" 2> "$3.err"; then
        vm_fail "gesturectl replay $(basename "$2") failed: $(tail -c 300 "$3.err")"
        return 1
    fi
    jq -c 'select(type == "object" and has("kind") and has("state"))' < "$3.raw" > "$3" \
        || { vm_fail "gesturectl replay $(basename "$2") printed lines that are not JSON: $(head -c 200 "$3.raw")"; return 1; }
}

# vm_project — the comparable part of events (stdin → stdout): name kind state fingers.
vm_project() { jq -r '[.name, .kind, .state, (.fingers | tostring)] | join(" ")'; }

# vm_compare WHAT EXPECTED_FILE ACTUAL_FILE — both projected event sequences must be equal.
vm_compare() {
    if diff -u "$2" "$3" > "$VM_SCRATCH/diff.tmp"; then
        vm_log "ok: $1 ($(wc -l < "$3") events)"
        return 0
    fi
    # Runs of equal events folded ("37 pan pan changed 1") so the diff stays readable.
    uniq -c "$2" > "$VM_SCRATCH/diff.expected"
    uniq -c "$3" > "$VM_SCRATCH/diff.actual"
    vm_fail "$1: sequences differ ($(wc -l < "$2") expected, $(wc -l < "$3") seen); diff of count-folded runs (-expected +seen):
$(diff -U2 "$VM_SCRATCH/diff.expected" "$VM_SCRATCH/diff.actual" | sed -n '3,30p')"
    return 1
}
