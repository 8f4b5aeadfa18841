# Tests/vm/bench_lisgd_measure.sh — the measurement of bench_lisgd and bench_lisgd_trixie,
# sourced by them after lib.sh with
#   bench_lisgd     Debian's lisgd (a program)
#   bench_gestured  gestured's `lisgd` (a link named lisgd to gesture-run)
#   gesture_run     the gesture-run that link leads to
# Both read one uinput phone panel at once, with Sxmo's 46 bindings
# (Tests/vm/sxmo_lisgd.sh), while the 49 labelled phone strokes
# (Tests/fixtures/phone) play, BENCH_ROUNDS times (3). Each binding's command only
# appends its label to a log with shell builtins, so the fires can be compared and
# no command is costly. Measured from /proc with shell builtins: CPU ticks (user +
# system, fields 14 and 15 of /proc/PID/stat) from just before a playback until
# every command has logged, per round; the quietest round of each counts (the
# host's load only adds). Beside the ticks, the same span's time on a CPU in
# nanoseconds (the first field of /proc/PID/task/*/schedstat, summed over the
# threads): a tick is 10 ms, a playback costs under a second, so two readers
# a tick apart may be equal; the nanoseconds tell. Peak RSS is VmHWM at the end. Then, from
# /proc/PID/smaps, where each one's resident memory is (its binary, each library,
# heap, other anonymous memory, stack). Results: $VM_RESULTS/bench.tsv,
# smaps.txt, fires.txt; scripts/lisgd-bench.sh prints the ratios. Compare within
# one run only (a TCG guest).
strokes=$VM_REPO/Tests/fixtures/phone/strokes
vm_device_create panel "$strokes.desc" || vm_abort "cannot create the touchscreen"
node=$(vm_node panel)
m=$VM_SCRATCH/measure
logs=$VM_SCRATCH/logs
mkdir -p "$m" "$logs"

# Sxmo's bindings and options (Tests/vm/sxmo_lisgd.sh); each command appends its label to logs/READER.log.
. "$VM_REPO/Tests/vm/sxmo_lisgd.sh"
launcher() { _n=$1; shift; sxmo_launcher "$VM_SCRATCH/run-$_n.sh" "$logs/$_n.log" label "$@"; }
readers="lisgd gestured"
launcher lisgd "$bench_lisgd" -d "$node" $SXMO_LISGD_OPTIONS
launcher gestured "$bench_gestured" -d "$node" $SXMO_LISGD_OPTIONS
# BENCH_VARIANTS="LABEL=GESTURE_RUN ...": more readers, other builds of gesture-run
# (each through its own link named lisgd), named v-LABEL, on the same playbacks.
for _v in ${BENCH_VARIANTS:-}; do
    _l=v-${_v%%=*}
    [ -x "${_v#*=}" ] || vm_abort "variant $_l: no ${_v#*=}"
    mkdir -p "$VM_SCRATCH/bin-$_l"
    ln -sf "${_v#*=}" "$VM_SCRATCH/bin-$_l/lisgd"
    launcher "$_l" "$VM_SCRATCH/bin-$_l/lisgd" -d "$node" $SXMO_LISGD_OPTIONS
    readers="$readers $_l"
done

for r in $readers; do
    sh "$VM_SCRATCH/run-$r.sh" > "$VM_SCRATCH/$r.out" 2> "$VM_SCRATCH/$r.err" &
    p=$!; _vm_track $p
    vm_wait_until 60 vm_pid_holds "$p" "$node" || vm_abort "$r never opened $node: $(tail -c 400 "$VM_SCRATCH/$r.err")"
    echo "$p" > "$m/$r.pid"
done
read -r gp < "$m/gestured.pid"
vm_assert_eq "gestured's lisgd runs in gesture-run itself (not handed to gesturectl)" \
    "$(readlink -f "$gesture_run")" "$(readlink "/proc/$gp/exe")"

# Readings with shell builtins only (a fork costs about 0.1 s under TCG).
stat_of() { read -r _line < "/proc/$1/stat" || return 1; set -- $_line; utime=${14}; stime=${15}; }
status_of() {
    ctxsw=0 hwm=0
    while read -r _k _v _rest; do
        case "$_k" in
        voluntary_ctxt_switches:|nonvoluntary_ctxt_switches:) ctxsw=$((ctxsw + _v)) ;;
        VmHWM:) hwm=$_v ;;
        esac
    done < "/proc/$1/status"
}
# ns_of PID — the time on a CPU of all its threads, in nanoseconds, into $ns.
ns_of() {
    ns=0
    for _t in /proc/"$1"/task/*; do
        read -r _run _rest < "$_t/schedstat" || return 1
        ns=$((ns + _run))
    done
}
# sample TAG — "TICKS SYS CTXSW HWM NS" of every reader into $m/READER.TAG.
sample() {
    for r in $readers; do
        read -r p < "$m/$r.pid"
        stat_of "$p" && status_of "$p" && ns_of "$p" || { vm_fail "$r (pid $p) is gone"; continue; }
        echo "$((utime + stime)) $stime $ctxsw $hwm $ns" > "$m/$r.$1"
    done
}
# wait_logged — until no log has grown for 3 s (every command of the playback ran).
sizes() { _s=0; for _f in "$logs"/*.log; do [ -f "$_f" ] && _s=$((_s + $(wc -c < "$_f"))); done; echo $_s; }
wait_logged() {
    _last=-1 _still=0
    while [ "$_still" -lt 3 ]; do
        _now=$(sizes)
        if [ "$_now" = "$_last" ]; then _still=$((_still + 1)); else _still=0; _last=$_now; fi
        sleep 1
    done
}

sleep 2
rounds=${BENCH_ROUNDS:-3}
round=1
sample before1
while [ "$round" -le "$rounds" ]; do
    vm_device_play panel "$strokes.events"
    wait_logged
    sample "after$round"
    for r in $readers; do
        c=0; [ -f "$logs/$r.log" ] && c=$(wc -l < "$logs/$r.log")
        echo "$c" > "$m/$r.fires$round"
    done
    round=$((round + 1))
    for r in $readers; do cp "$m/$r.after$((round - 1))" "$m/$r.before$round"; done
done

# Where the resident memory is, per mapping (smaps), and the rollup.
for r in $readers; do
    read -r p < "$m/$r.pid"
    {
        echo "== $r (pid $p, exe $(readlink "/proc/$p/exe"))"
        grep -E '^(Rss|Pss|Shared_Clean|Private_Clean|Private_Dirty|Anonymous):' "/proc/$p/smaps_rollup"
        grep -E '^(VmHWM|VmRSS|RssAnon|RssFile|VmData|VmStk|VmExe|VmLib):' "/proc/$p/status"
        echo "-- resident kB by mapping (Rss, of it Private_Dirty)"
        awk '
            /^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6 ? $6 : "[anon]"); perm = $2; next }
            /^Rss:/ { rss[name " " perm] += $2 }
            /^Private_Dirty:/ { dirty[name " " perm] += $2 }
            END { for (k in rss) if (rss[k] > 0) printf "%8d %8d  %s\n", rss[k], dirty[k], k }
        ' "/proc/$p/smaps" | sort -rn
    } >> "$VM_RESULTS/smaps.txt"
done

out=$VM_RESULTS/bench.tsv
printf 'reader\tplay_ticks\tplay_sys_ticks\tpeak_rss_kb\tplay_ctxsw\tfires\trounds_ticks\tplay_cpu_us\trounds_cpu_us\n' > "$out"
for r in $readers; do
    best= all= bestus= allus= round=1
    while [ "$round" -le "$rounds" ]; do
        read -r ta sa ca _h na < "$m/$r.before$round"
        read -r tb sb cb hwm nb < "$m/$r.after$round"
        all="$all${all:+,}$((tb - ta))"
        us=$(((nb - na) / 1000))
        allus="$allus${allus:+,}$us"
        if [ -z "$best" ] || [ $((tb - ta)) -lt "$best" ]; then
            best=$((tb - ta)) bsys=$((sb - sa)) bcs=$((cb - ca))
        fi
        if [ -z "$bestus" ] || [ "$us" -lt "$bestus" ]; then bestus=$us; fi
        round=$((round + 1))
    done
    read -r fires < "$m/$r.fires$rounds"
    printf '%s\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%s\n' "$r" "$best" "$bsys" "$hwm" "$bcs" "$fires" "$all" "$bestus" "$allus" >> "$out"
    vm_log "$(tail -n1 "$out")"
done
# The same fires in both, per label (a check that both did the same work).
for r in $readers; do sort "$logs/$r.log" | uniq -c | awk -v r="$r" '{ print r, $2, $1 }'; done | sort -k2 > "$VM_RESULTS/fires.txt"
labels() { sort -u "$logs/$1.log" | tr '\n' ' '; }
for r in $readers; do
    [ "$r" = lisgd ] && continue
    vm_assert_eq "$r fired the same bindings as lisgd" "$(labels lisgd)" "$(labels "$r")"
    vm_note "fires over all rounds: lisgd $(wc -l < "$logs/lisgd.log"), $r $(wc -l < "$logs/$r.log") (slider repeats may differ by a few)"
done
vm_assert_eq "clock ticks per second" 100 "$(getconf CLK_TCK)"

for r in $readers; do
    read -r p < "$m/$r.pid"
    kill -TERM "$p" 2>/dev/null
    _vm_wait_gone "$p" 10 || kill -KILL "$p" 2>/dev/null
done
vm_device_remove panel
vm_finish
