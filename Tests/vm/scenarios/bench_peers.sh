#!/bin/sh
# Peer benchmark (run by scripts/peer-bench.sh, not part of the default suite): one
# uinput touchscreen, one played recording, read at the same time by
#   gestured with no clients (socket only, no stdout), gestured with 10 subscribers,
#   gestured --stdout, lisgd, and libinput debug-events.
# All of them read the same playback, so all of them run under the same load: a TCG
# guest's ticks stretch with whatever else the host runs, and readers measured one
# after another minutes apart were not comparable. Each is measured from /proc: CPU
# ticks while the recording plays (user + system, and the system share; and in all,
# start-up included), peak RSS (VmHWM), context switches (wakeups) while playing and
# over 10 s idle; the recording is played BENCH_ROUNDS times (3) and each reader's
# quietest round counts. Then, one reader at a time, a playback under strace -c -f counts
# that reader's system calls (the others read it too; strace counts only its own).
# With 10 subscribers, one of them (Tests/vm/tools/latency_probe.py) writes the
# latency of each discrete gesture of the first playback: kernel time of the
# deciding frame (or deadline) to the moment the subscriber read it, and to the
# daemon's own `emitted`. "lines out" count every playback.
# Results: $VM_RESULTS/bench.tsv (one row per reader). Compare only within one run:
# under TCG the absolute numbers mean little, the ratios a lot.
# vm-manual: yes
# vm-timeout: 1500
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

rec=${BENCH_RECORDING:-$VM_REPO/.build-vm-guest/bench/tenfinger.events}
desc=${rec%.events}.desc
[ -r "$rec" ] && [ -r "$desc" ] || vm_skip "no recording at $rec (scripts/peer-bench.sh generates it)"
with_strace=1
command -v strace >/dev/null || { with_strace=; vm_note "no strace: no system call counts"; }
hz=$(getconf CLK_TCK)
out=$VM_RESULTS/bench.tsv
printf 'reader\tplay_ticks\ttotal_ticks\tpeak_rss_kb\tplay_ctxsw\tidle10s_ctxsw\tidle10s_ticks\tsyscalls\tlines_out\tplay_sys_ticks\n' > "$out"
readers=${BENCH_READERS:-"gestured-0 gestured-10 gestured-stdout lisgd libinput"}
# BENCH_VARIANTS="LABEL=DIR ...": more readers, gestured with no clients from the
# binaries in DIR, named v-LABEL, to compare builds within one playback (with
# DIR/gestured.toml as its config when there is one).
for _v in ${BENCH_VARIANTS:-}; do readers="$readers v-${_v%%=*}"; done
[ "${BENCH_STRACE:-1}" = 0 ] && with_strace=
# BENCH_SUB_PREFIX: a command the subscribers run under (e.g. "chrt -b 0").
BENCH_SUB_PREFIX=${BENCH_SUB_PREFIX:-}

vm_device_create panel "$desc" || vm_abort "cannot create the touchscreen"
node=$(vm_node panel)
m=$VM_SCRATCH/measure
mkdir -p "$m"

# Readings from /proc with shell builtins only (a fork costs about 0.1 s under TCG).
# stat PID — sets utime and stime (fields 14 and 15; the names here have no spaces).
stat_of() { read -r _line < "/proc/$1/stat" || return 1; set -- $_line; utime=${14}; stime=${15}; }
# status PID — sets ctxsw (voluntary + nonvoluntary) and hwm (VmHWM, kB).
status_of() {
    ctxsw=0 hwm=0
    while read -r _k _v _rest; do
        case "$_k" in
        voluntary_ctxt_switches:|nonvoluntary_ctxt_switches:) ctxsw=$((ctxsw + _v)) ;;
        VmHWM:) hwm=$_v ;;
        esac
    done < "/proc/$1/status"
}
# sample TAG — for every reader, "TICKS SYS CTXSW HWM" into $m/READER.TAG.
sample() {
    for r in $readers; do
        read -r p < "$m/$r.pid" 2>/dev/null || continue
        stat_of "$p" && status_of "$p" || continue
        echo "$((utime + stime)) $stime $ctxsw $hwm" > "$m/$r.$1"
    done
}

_fds_at_least() { [ "$(vm_fd_count "$1")" -ge "$2" ]; }

# start_reader NAME — starts the reader NAME in the background and waits until it
# holds the node; its pid goes to $m/NAME.pid, its subscribers' to $m/NAME.subs.
start_reader() {
    subs=
    case "$1" in
    gestured-0|v-*)
        # No clients: this build, or a variant's binaries (and config, if it has one).
        exe=$VM_GESTURED cfg=$GESTURED_CONFIG
        for _v in ${BENCH_VARIANTS:-}; do
            [ "v-${_v%%=*}" = "$1" ] || continue
            exe=${_v#*=}/gestured
            [ -r "${_v#*=}/gestured.toml" ] && cfg=${_v#*=}/gestured.toml
        done
        sock=$VM_SCRATCH/$1.sock
        rm -f "$sock"
        "$exe" --config "$cfg" --socket "$sock" > "$VM_SCRATCH/$1.out" 2> "$VM_SCRATCH/$1.err" &
        pid=$! ;;
    gestured-10)
        sock=$VM_SCRATCH/$1.sock
        rm -f "$sock"
        "$VM_GESTURED" --config "$GESTURED_CONFIG" --socket "$sock" > "$VM_SCRATCH/$1.out" 2> "$VM_SCRATCH/$1.err" &
        pid=$!
        vm_wait_until 60 vm_pid_holds "$pid" "$node" || { vm_fail "$1 never opened $node"; return 1; }
        base=$(vm_fd_count "$pid")
        # Nine `gesturectl subscribe` and one latency probe, all receiving every event.
        for i in 1 2 3 4 5 6 7 8 9; do
            $BENCH_SUB_PREFIX "$VM_GESTURECTL" subscribe --socket "$sock" > "$VM_SCRATCH/sub$i.out" 2> "$VM_SCRATCH/sub$i.err" &
            subs="$subs $!"; _vm_track $!
        done
        $BENCH_SUB_PREFIX python3 "$VM_REPO/Tests/vm/tools/latency_probe.py" "$sock" "$m/latency" 2> "$VM_SCRATCH/probe.err" &
        subs="$subs $!"; _vm_track $!
        # Every subscriber connected: the daemon holds 10 more sockets than before.
        vm_wait_until 120 _fds_at_least "$pid" $((base + 10)) || vm_fail "$1: only $(vm_fd_count "$pid") fds, wanted $((base + 10))" ;;
    gestured-stdout)
        "$VM_GESTURED" --stdout --no-socket --config "$GESTURED_CONFIG" > "$VM_SCRATCH/$1.out" 2> "$VM_SCRATCH/$1.err" &
        pid=$! ;;
    lisgd)
        # Bindings in lisgd's own format, each a no-op command, so that only
        # recognition is measured (lisgd waits for its commands; gestured has none).
        lisgd -d "$node" -w 2560 -h 1600 \
            -g '1,LR,*,*,R,:' -g '1,RL,*,*,R,:' -g '1,DU,*,*,R,:' -g '1,UD,*,*,R,:' \
            -g '2,LR,*,*,R,:' -g '2,RL,*,*,R,:' -g '2,DU,*,*,R,:' -g '2,UD,*,*,R,:' \
            -g '3,LR,*,*,R,:' -g '3,RL,*,*,R,:' -g '3,DU,*,*,R,:' -g '3,UD,*,*,R,:' \
            -g '1,DLUR,*,*,R,:' -g '1,URDL,*,*,R,:' \
            > "$VM_SCRATCH/$1.out" 2> "$VM_SCRATCH/$1.err" &
        pid=$! ;;
    libinput)
        libinput debug-events --device "$node" > "$VM_SCRATCH/$1.out" 2> "$VM_SCRATCH/$1.err" &
        pid=$! ;;
    esac
    _vm_track "$pid"
    vm_wait_until 60 vm_pid_holds "$pid" "$node" || { vm_fail "$1 never opened $node: $(tail -c 300 "$VM_SCRATCH/$1.err")"; return 1; }
    echo "$pid" > "$m/$1.pid"
    echo "$subs" > "$m/$1.subs"
}

# stop_reader NAME — SIGINT to the reader (gestured cancels what is in flight and
# exits 0), SIGKILL after 10 s; then its subscribers. Waits for exactly these
# processes: a bare `wait` would also wait for evemu-device, which holds the
# touchscreen until the end of the scenario, and never return.
stop_reader() {
    read -r pid < "$m/$1.pid" 2>/dev/null || { stopped="never started"; return; }
    read -r subs < "$m/$1.subs" 2>/dev/null || subs=
    read -r _s1 _s2 state _rest < "/proc/$pid/stat" 2>/dev/null || state=gone
    kill -INT "$pid" 2>/dev/null
    if _vm_wait_gone "$pid" 10; then
        stopped="SIGINT"
    else
        kill -KILL "$pid" 2>/dev/null
        _vm_wait_gone "$pid" 5 || vm_fail "$1 (pid $pid) survived SIGKILL"
        stopped="SIGKILL (state $state before SIGINT)"
        vm_note "$1 did not exit within 10 s of SIGINT (state $state before it); killed"
    fi
    for s in $subs; do kill "$s" 2>/dev/null; done
    for s in $subs; do _vm_wait_gone "$s" 5 || kill -KILL "$s" 2>/dev/null; done
}

# stop_strace PID READER — strace detaches on SIGINT and writes its summary. A
# tracee it leaves in a stop would ignore the SIGINT that ends it: continue it.
stop_strace() {
    kill -INT "$1" 2>/dev/null
    _vm_wait_gone "$1" 20 || { vm_note "strace did not detach within 20 s; killed"; kill -KILL "$1" 2>/dev/null; _vm_wait_gone "$1" 5; }
    read -r p < "$m/$2.pid"
    read -r _s1 _s2 state _rest < "/proc/$p/stat" 2>/dev/null || state=gone
    case "$state" in
    t|T) vm_note "$2 was left stopped ($state) after strace; SIGCONT"; kill -CONT "$p" 2>/dev/null ;;
    esac
}

for reader in $readers; do
    vm_log "=== starting $reader"
    start_reader "$reader" || vm_fail "$reader did not start"
done
sleep 1
sample start
sleep 10
sample idle
# Played ${BENCH_ROUNDS:-3} times; for each reader the round with the fewest ticks
# counts (the host's load only ever adds to them).
rounds=${BENCH_ROUNDS:-3}
round=1
while [ "$round" -le "$rounds" ]; do
    vm_device_play panel "$rec"
    sleep 3
    sample "played$round"
    if [ "$round" = 1 ]; then
        # Latency from the first playback (under strace it would include strace's cost).
        cp "$m/latency" "$VM_RESULTS/latency.txt" 2>/dev/null
    fi
    round=$((round + 1))
done

# BENCH_PERF=1: one more playback sampled by `perf record -a` (cpu-clock, every
# process and the kernel), reported per command, library and symbol.
if [ -n "${BENCH_PERF:-}" ] && command -v perf >/dev/null; then
    vm_log "=== perf record -a"
    perf record -a -g -e cpu-clock -F 1000 -o "$VM_SCRATCH/perf.data" > "$VM_SCRATCH/perf.rec.out" 2>&1 &
    pr=$!
    sleep 2
    vm_device_play panel "$rec"
    sleep 2
    kill -INT "$pr"
    _vm_wait_gone "$pr" 60 || kill -KILL "$pr"
    perf report -i "$VM_SCRATCH/perf.data" --no-children --sort comm --stdio > "$VM_RESULTS/perf.comm.txt" 2>&1
    perf report -i "$VM_SCRATCH/perf.data" --no-children --comm gestured --sort dso,symbol -g none --stdio \
        > "$VM_RESULTS/perf.gestured.txt" 2>&1
    perf report -i "$VM_SCRATCH/perf.data" --no-children --comm lisgd --sort dso,symbol -g none --stdio \
        > "$VM_RESULTS/perf.lisgd.txt" 2>&1
    perf report -i "$VM_SCRATCH/perf.data" --no-children --pid "$(cat "$m/gestured-10.pid")" --sort dso,symbol -g caller --stdio \
        > "$VM_RESULTS/perf.gestured-10.txt" 2>&1
    perf report -i "$VM_SCRATCH/perf.data" --no-children --pid "$(cat "$m/gestured-0.pid")" --sort dso,symbol -g caller --stdio \
        > "$VM_RESULTS/perf.gestured-0.txt" 2>&1
fi

if [ -n "$with_strace" ]; then
    for reader in $readers; do
        read -r p < "$m/$reader.pid" 2>/dev/null || continue
        vm_log "=== strace $reader"
        strace -c -f -p "$p" -o "$VM_SCRATCH/$reader.strace" 2>/dev/null &
        st=$!
        sleep 2
        vm_device_play panel "$rec"
        sleep 3
        stop_strace "$st" "$reader"
        sed -n '1,25p' "$VM_SCRATCH/$reader.strace" > "$VM_RESULTS/$reader.strace"
    done
fi

for reader in $readers; do
    read -r t0 s0 c0 h0 < "$m/$reader.start" 2>/dev/null || continue
    read -r t1 s1 c1 h1 < "$m/$reader.idle"
    # The round with the fewest ticks: its ticks, system ticks and context switches.
    best= round=1 ta=$t1 sa=$s1 ca=$c1
    while [ "$round" -le "$rounds" ]; do
        read -r tb sb cb rss < "$m/$reader.played$round"
        if [ -z "$best" ] || [ $((tb - ta)) -lt "$best" ]; then
            best=$((tb - ta)) bsys=$((sb - sa)) bcs=$((cb - ca))
        fi
        vm_log "$reader round $round: $((tb - ta)) ticks ($((sb - sa)) sys), $((cb - ca)) context switches"
        ta=$tb sa=$sb ca=$cb round=$((round + 1))
    done
    calls=-
    [ -s "$VM_SCRATCH/$reader.strace" ] && calls=$(awk '$NF == "total" { print $4 }' "$VM_SCRATCH/$reader.strace")
    lines=$(wc -l < "$VM_SCRATCH/$reader.out")
    [ "$reader" = gestured-10 ] && lines="$lines; subscribers $(cat "$VM_SCRATCH"/sub*.out | wc -l)"
    stop_reader "$reader"
    vm_log "$reader stopped by $stopped"
    printf '%s\t%d\t%d\t%s\t%d\t%d\t%d\t%s\t%s\t%d\n' "$reader" "$best" "$ta" "$rss" "$bcs" $((c1 - c0)) $((t1 - t0)) "${calls:--}" "$lines" "$bsys" >> "$out"
    vm_log "$(tail -n1 "$out")"
done
echo "CLK_TCK $hz" > "$VM_RESULTS/clk_tck"
vm_device_remove panel
vm_finish
