#!/usr/bin/env bash
# Tests/vm/run.sh [SCENARIO…] — run the VM scenarios under qemu on a real kernel.
#
# Boots the installed Debian kernel with a tiny busybox initramfs that mounts this
# machine's root read-only over 9p (plus a tmpfs overlay) and a writable 9p share
# for results, once per guest mode (chroot, systemd, trixie), side by side, and runs
# every scenario of that mode in that one boot, each with its own time limit and
# verdict.
# See Tests/vm/README.md. Exit status: 0 when nothing failed, 1 otherwise, 2 when
# the harness itself cannot run (missing packages, unknown scenario).
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd -P)
repo=$(cd "$here/../.." && pwd -P)
cache=${VM_CACHE_DIR:-$repo/.build-vm-guest}
scenario_timeout=${VM_TIMEOUT:-180}       # seconds, per scenario (enforced in the guest)
boot_timeout=${VM_BOOT_TIMEOUT:-240}      # seconds from qemu start to the runner's "booted"
host_grace=30                             # the host kills a guest this long after a scenario's limit
poweroff_grace=60
accel=${VM_ACCEL:-tcg}
mem=${VM_MEM:-1024}
smp=${VM_SMP:-1}
bin_dir=${GESTURED_BIN_DIR:-$repo/.build/debug}
config=${GESTURED_CONFIG:-$repo/config/gestured.toml}
# The .debs the trixie scenarios install (scripts/debian-build.sh writes them there);
# it must lie inside the repository, which is what the trixie guest sees of the host.
deb_dir=${GESTURED_DEB_DIR:-$repo/.build-deb}
packages="qemu-system-x86 linux-image-amd64 busybox-static udev systemd kmod evemu-tools libinput-tools jq dbus libpam-systemd acl lisgd strace"
modules_wanted="virtio_pci 9pnet_virtio 9p overlay evdev uinput"

t_start=$(date +%s.%N)
say() { echo "vm: $*"; }
die() { echo "vm: error: $*" >&2; exit 2; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# --- packages --------------------------------------------------------------------
install_packages() {
    command -v dpkg-query >/dev/null || {
        for c in qemu-system-x86_64 busybox udevadm evemu-device libinput jq modprobe; do
            command -v "$c" >/dev/null || die "needs $c (Debian packages: $packages)"
        done
        return
    }
    local missing=() p
    for p in $packages; do
        [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && [ -z "${VM_NO_INSTALL:-}" ]; then
        say "installing ${missing[*]}"
        apt-get update >&2 || die "apt-get update failed"
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2 \
            || die "apt-get install ${missing[*]} failed"
    else
        die "missing packages: ${missing[*]} (as root: apt-get update && apt-get install -y ${missing[*]})"
    fi
}

# --- kernel and initramfs ----------------------------------------------------------
pick_kernel() {
    if [ -n "${VM_KERNEL_VERSION:-}" ]; then
        kver=$VM_KERNEL_VERSION
    else
        kver=
        local k
        for k in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V -r); do
            if [ -f "/usr/lib/modules/$k/modules.dep" ]; then kver=$k; break; fi
        done
    fi
    [ -n "$kver" ] || die "no /boot/vmlinuz-<ver> with modules in /usr/lib/modules/<ver> (install linux-image-amd64)"
    kernel=/boot/vmlinuz-$kver
    [ -r "$kernel" ] || die "cannot read $kernel"
}

# Module files in load order, dependencies first, each once.
module_paths() {
    local m line
    for m in $modules_wanted; do
        modprobe -S "$kver" --show-depends "$m" || die "modprobe -S $kver --show-depends $m failed"
    done | while read -r line; do
        case "$line" in
        insmod\ *) line=${line#insmod }; echo "${line%% *}" ;;
        builtin\ *) ;;
        *) echo "unexpected modprobe output: $line" >&2 ;;
        esac
    done | awk '!seen[$0]++'
}

build_initramfs() {
    local busybox=${VM_BUSYBOX:-/bin/busybox}
    [ -x "$busybox" ] || die "no static busybox at $busybox (install busybox-static)"
    local mods
    mods=$(module_paths) || exit 2
    [ -n "$mods" ] || die "no kernel modules found for $kver"
    local key
    key=$( { echo "$kver"; sha256sum "$busybox" "$here/guest/init"; for f in $mods; do sha256sum "$f"; done; } \
        | sha256sum | cut -c1-16)
    initrd=$cache/initramfs-$kver-$key.cpio.gz
    [ -s "$initrd" ] && return
    say "building initramfs for $kver"
    mkdir -p "$cache"
    local stage
    stage=$(mktemp -d "$cache/initramfs-stage.XXXXXX")
    mkdir -p "$stage"/{bin,dev,proc,sys,modules}
    cp "$busybox" "$stage/bin/busybox"
    cp "$here/guest/init" "$stage/init"
    chmod 755 "$stage/init" "$stage/bin/busybox"
    local f base
    : > "$stage/modules.list"
    for f in $mods; do
        base=$(basename "$f")
        case "$f" in
        *.ko.xz) xz -dc "$f" > "$stage/modules/${base%.xz}"; base=${base%.xz} ;;
        *.ko.zst) zstd -qdc "$f" > "$stage/modules/${base%.zst}"; base=${base%.zst} ;;
        *.ko.gz) gzip -dc "$f" > "$stage/modules/${base%.gz}"; base=${base%.gz} ;;
        *) cp "$f" "$stage/modules/$base" ;;
        esac
        echo "$base" >> "$stage/modules.list"
    done
    (cd "$stage" && find . | LC_ALL=C sort | "$busybox" cpio -o -H newc 2>/dev/null) | gzip -1 > "$initrd.tmp.$$" \
        || die "cpio failed"
    mv "$initrd.tmp.$$" "$initrd"
    rm -rf "$stage"
}

# --- scenarios -------------------------------------------------------------------
scenario_mode() {
    local m
    m=$(sed -n 's/^# vm-mode: *\([a-z]*\).*/\1/p' "$1" | head -n1)
    echo "${m:-chroot}"
}

# A scenario may ask for a longer limit than VM_TIMEOUT with a "# vm-timeout: SECONDS" line.
scenario_limit() {
    local t
    t=$(sed -n 's/^# vm-timeout: *\([0-9]*\).*/\1/p' "$here/scenarios/$1.sh" | head -n1)
    echo "${t:-$scenario_timeout}"
}

select_scenarios() {
    local all=() s
    # smoke* first: when the machinery itself is broken, that is the verdict to read.
    for s in "$here"/scenarios/smoke*.sh "$here"/scenarios/*.sh; do
        # "# vm-manual: yes" (benchmarks): only when named.
        grep -q '^# vm-manual: *yes' "$s" && continue
        s=$(basename "$s" .sh)
        [[ " ${all[*]} " == *" $s "* ]] || all+=("$s")
    done
    if [ $# -eq 0 ]; then
        selected=("${all[@]}")
    else
        selected=()
        for s in "$@"; do
            s=$(basename "$s" .sh)
            [ -f "$here/scenarios/$s.sh" ] || die "no scenario $s (have: ${all[*]}; and, only when named: $(grep -l '^# vm-manual: *yes' "$here"/scenarios/*.sh | xargs -n1 basename | sed 's/\.sh$//' | tr '\n' ' '))"
            selected+=("$s")
        done
    fi
}

# --- one boot ----------------------------------------------------------------------
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

qemu_pid=
cleanup() { [ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

passed=0 failed=0 skipped=0
skipped_names=()

# boot MODE SCENARIO… — one qemu run; fills $res/<scenario>/ and the counters.
boot() {
    local mode=$1; shift
    local res=$run_dir/$mode
    mkdir -p "$res"
    {
        echo "VM_REPO=$(q "$repo")"
        echo "VM_SCENARIOS=$(q "$*")"
        echo "VM_TIMEOUT=$(q "$scenario_timeout")"
        echo "GESTURED_BIN_DIR=$(q "$bin_dir")"
        echo "GESTURED_CONFIG=$(q "$config")"
        echo "GESTURED_DEB_DIR=$(q "$deb_dir")"
        echo "GESTURED_REQUIRE_DEB=$(q "${GESTURED_REQUIRE_DEB:-}")"
        # Scenario parameters (BENCH_ROUNDS, BENCH_RECORDING…) pass through.
        env | grep -E '^BENCH_[A-Z_]+=' | while IFS='=' read -r k v; do echo "$k=$(q "$v")"; done || true
    } > "$res/plan.env"
    : > "$res/progress"
    local append="console=ttyS0 quiet panic=-1 vm.mode=$mode"
    local root_share=/ repo_share=()
    if [ "$mode" = trixie ]; then
        root_share=$(GESTURED_TRIXIE_ARCH=amd64 "$repo/scripts/trixie-root.sh" vm) || die "cannot make the trixie root"
        repo_share=(-virtfs "local,path=$repo,mount_tag=repo,security_model=none,readonly=on,multidevs=remap")
    fi
    if [ "$mode" = systemd ] || [ "$mode" = trixie ]; then
        # tmpfiles-setup walks the whole 9p root: most of a minute for nothing.
        append="$append systemd.unit=vm-scenarios.target systemd.mask=systemd-tmpfiles-setup.service"
    fi
    say "[$mode] booting $kver for: $*"
    local t0 t_boot=
    t0=$(date +%s.%N)
    qemu-system-x86_64 -accel "$accel" -cpu max -m "$mem" -smp "$smp" -nographic -no-reboot -nic none \
        -kernel "$kernel" -initrd "$initrd" -append "$append" \
        -virtfs "local,path=$root_share,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
        -virtfs "local,path=$res,mount_tag=results,security_model=none,multidevs=remap" "${repo_share[@]}" \
        </dev/null >"$res/console.log" 2>&1 &
    qemu_pid=$!

    local seen=0 current= current_t0= current_limit= problem= done_t= now line
    while kill -0 "$qemu_pid" 2>/dev/null; do
        sleep 1
        now=$(date +%s)
        while [ "$(wc -l < "$res/progress")" -gt "$seen" ]; do
            seen=$((seen + 1))
            line=$(sed -n "${seen}p" "$res/progress")
            case "$line" in
            booted\ *) t_boot=$(date +%s.%N); say "[$mode] guest up after $(elapsed "$t0" "$t_boot") s" ;;
            start\ *) current=$(echo "$line" | cut -d' ' -f2); current_t0=$now
                      current_limit=$(( $(scenario_limit "$current") + host_grace )) ;;
            end\ *) current= ;;
            done\ *) done_t=$now ;;
            fatal\ *) say "[$mode] guest: $line" ;;
            note\ *) say "[$mode] guest: $line" ;;
            esac
        done
        if [ -z "$t_boot" ] && [ "$(elapsed "$t0" "$(date +%s.%N)" | cut -d. -f1)" -ge "$boot_timeout" ]; then
            problem="guest not up within ${boot_timeout}s"; break
        fi
        if [ -n "$current" ] && [ $((now - current_t0)) -ge "$current_limit" ]; then
            problem="guest hung in $current (no end after ${current_limit}s)"; break
        fi
        if [ -n "$done_t" ] && [ $((now - done_t)) -ge "$poweroff_grace" ]; then
            problem="guest did not power off ${poweroff_grace}s after its last scenario"; break
        fi
    done
    if kill -0 "$qemu_pid" 2>/dev/null; then
        kill "$qemu_pid" 2>/dev/null; sleep 1; kill -KILL "$qemu_pid" 2>/dev/null
    fi
    wait "$qemu_pid" 2>/dev/null
    qemu_pid=
    local t1
    t1=$(date +%s.%N)
    say "[$mode] qemu ran $(elapsed "$t0" "$t1") s"
    if grep -q 'Kernel panic' "$res/console.log"; then
        problem="${problem:+$problem; }kernel panic: $(grep -m1 'Kernel panic' "$res/console.log")"
    fi
    if [ -n "$problem" ]; then say "[$mode] $problem"; fi

    local s dir verdict secs endline
    for s in "$@"; do
        dir=$res/$s
        verdict=
        [ -s "$dir/verdict" ] && verdict=$(head -n1 "$dir/verdict" | tr -d '[:space:]')
        endline=$(grep "^end $s " "$res/progress" | tail -n1)
        secs=
        [ -n "$endline" ] && secs=$(echo "$endline" | awk '{ printf " (%.1f s)", $4 - $5 }')
        case "$verdict" in
        PASS) passed=$((passed + 1)); say "PASS $s [$mode]$secs" ;;
        SKIP) skipped=$((skipped + 1)); skipped_names+=("$s")
              say "SKIP $s [$mode]$secs: $(sed -n 2p "$dir/verdict")" ;;
        FAIL) failed=$((failed + 1)); say "FAIL $s [$mode]$secs"
              sed 1d "$dir/verdict" | sed 's/^/vm:     /'
              [ -s "$dir/timeout" ] && say "    $(cat "$dir/timeout")" ;;
        *)    failed=$((failed + 1))
              local why="no verdict"
              [ -s "$dir/timeout" ] && why="$why, $(cat "$dir/timeout")"
              [ -s "$dir/rc" ] && why="$why, exit status $(cat "$dir/rc")"
              [ -z "$endline" ] && why="$why, never finished"
              [ -n "$problem" ] && why="$why; $problem"
              say "FAIL $s [$mode]: $why" ;;
        esac
        if [ "$verdict" != PASS ] && [ "$verdict" != SKIP ] && [ -s "$dir/log" ]; then
            say "    last lines of $dir/log:"
            tail -n 15 "$dir/log" | sed 's/^/vm:     | /'
        fi
    done
    # A guest that ran everything but then would not stop is a harness failure too.
    if [ -n "$problem" ] && [ -n "$done_t" ]; then failed=$((failed + 1)); fi
    if [ -n "$problem" ] || ! grep -q '^done ' "$res/progress"; then
        say "[$mode] last console lines ($res/console.log):"
        tail -n 25 "$res/console.log" | sed 's/^/vm:     | /'
    fi
}

# --- main --------------------------------------------------------------------------
install_packages
pick_kernel
select_scenarios "$@"
mkdir -p "$cache/runs"
build_initramfs
run_dir=${VM_RESULTS_DIR:-$cache/runs/$(date +%Y%m%d-%H%M%S)-$$}
mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd -P)
ln -sfn "$run_dir" "$cache/runs/latest" 2>/dev/null
say "results in $run_dir"

# The guests boot side by side (one vCPU each; VM_PARALLEL=0 boots them one after
# another): each writes its counts to $run_dir/MODE.counts.
guest_pids=()
stop_guests() { for p in "${guest_pids[@]}"; do kill -TERM "$p" 2>/dev/null; done; wait; }
trap 'stop_guests; exit 130' INT TERM
for mode in chroot systemd trixie; do
    list=()
    for s in "${selected[@]}"; do
        [ "$(scenario_mode "$here/scenarios/$s.sh")" = "$mode" ] && list+=("$s")
    done
    [ ${#list[@]} -gt 0 ] || continue
    (
        trap cleanup EXIT
        trap 'cleanup; exit 130' INT TERM
        boot "$mode" "${list[@]}"
        echo "$passed $failed $skipped ${skipped_names[*]}" > "$run_dir/$mode.counts"
    ) &
    guest_pids+=($!)
    [ "${VM_PARALLEL:-1}" = 0 ] && wait "$!"
done
wait
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM
for mode in chroot systemd trixie; do
    f=$run_dir/$mode.counts
    [ -e "$f" ] || continue
    read -r p f_ sk names < "$f"
    passed=$((passed + p)); failed=$((failed + f_)); skipped=$((skipped + sk))
    [ -n "${names:-}" ] && skipped_names+=($names)
done
# A guest that was chosen but wrote no counts died with its harness.
for mode in chroot systemd trixie; do
    for s in "${selected[@]}"; do
        if [ "$(scenario_mode "$here/scenarios/$s.sh")" = "$mode" ] && [ ! -e "$run_dir/$mode.counts" ]; then
            say "FAIL [$mode]: the guest's harness ended without results"; failed=$((failed + 1)); break
        fi
    done
done
for s in "${selected[@]}"; do
    m=$(scenario_mode "$here/scenarios/$s.sh")
    [ "$m" = chroot ] || [ "$m" = systemd ] || [ "$m" = trixie ] || { say "FAIL $s: unknown vm-mode '$m'"; failed=$((failed + 1)); }
done

say "wall time $(elapsed "$t_start" "$(date +%s.%N)") s (accel $accel, ${smp} vCPU)"
[ "$skipped" -gt 0 ] && say "$skipped skipped: ${skipped_names[*]}"
echo "vm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
