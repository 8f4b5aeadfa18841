#!/bin/sh
# vm-mode: trixie
# vm-manual: yes
# vm-timeout: 1500
# bench_lisgd_trixie: gestured's `lisgd` as packaged beside Debian's lisgd, in one
# Debian trixie guest (Tests/vm/bench_lisgd_measure.sh measures, as bench_lisgd):
#   gestured  /usr/bin/lisgd of the gestured-lisgd package (a link to
#             /usr/libexec/gestured/gesture-run), both .debs installed with
#             `apt install ./…` offline (GESTURED_DEB_DIR, from scripts/debian-build.sh)
#   lisgd     Debian trixie's lisgd 0.3.7: it conflicts with gestured-lisgd (both
#             are /usr/bin/lisgd), so its .deb is unpacked beside it with
#             `dpkg-deb -x` and the libraries it needs are installed with apt
#             (BENCH_LISGD_DEB_DIR: the lisgd .deb and those it depends on that
#             the guest lacks, fetched by scripts/lisgd-bench.sh --trixie).
. "$VM_REPO/Tests/vm/lib.sh"

debs=${GESTURED_DEB_DIR:-$VM_REPO/.build-deb}
main_deb=$(ls "$debs"/gestured_*.deb 2>/dev/null | head -n1)
lisgd_pkg=$(ls "$debs"/gestured-lisgd_*.deb 2>/dev/null | head -n1)
[ -n "$main_deb" ] && [ -n "$lisgd_pkg" ] || vm_skip "no .debs in $debs (scripts/debian-build.sh makes them)"
peer=${BENCH_LISGD_DEB_DIR:-$VM_REPO/.build-vm-guest/trixie-lisgd}
peer_deb=$(ls "$peer"/lisgd_*.deb 2>/dev/null | head -n1)
[ -n "$peer_deb" ] || vm_skip "no lisgd_*.deb in $peer (scripts/lisgd-bench.sh --trixie fetches it)"
vm_note "packages: $(basename "$main_deb") $(basename "$lisgd_pkg"); peer: $(basename "$peer_deb")"
export DEBIAN_FRONTEND=noninteractive
apt_offline() { apt-get -o Acquire::Languages=none -y "$@"; }

mkdir -p "$VM_SCRATCH/debs"
cp "$main_deb" "$lisgd_pkg" "$VM_SCRATCH/debs/"
apt_offline install "$VM_SCRATCH/debs/"*.deb > "$VM_SCRATCH/apt-install.log" 2>&1 \
    || vm_abort "apt install of the packages failed: $(tail -n 20 "$VM_SCRATCH/apt-install.log")"
gesture_run=/usr/libexec/gestured/gesture-run
vm_assert_eq "/usr/bin/lisgd is gestured-lisgd's link to gesture-run" "$gesture_run" "$(readlink -f /usr/bin/lisgd)"
vm_assert_eq "gesture-run is the gestured package's" gestured "$(dpkg-query -S "$gesture_run" 2>/dev/null | cut -d: -f1)"

# Debian's lisgd: the libraries it needs with apt, the program unpacked.
mkdir -p "$VM_SCRATCH/peer-debs"
for d in "$peer"/*.deb; do
    case "$(basename "$d")" in lisgd_*) ;; *) cp "$d" "$VM_SCRATCH/peer-debs/" ;; esac
done
if ls "$VM_SCRATCH/peer-debs/"*.deb > /dev/null 2>&1; then
    apt_offline install --no-install-recommends "$VM_SCRATCH/peer-debs/"*.deb > "$VM_SCRATCH/apt-peer.log" 2>&1 \
        || vm_abort "apt install of lisgd's libraries failed: $(tail -n 20 "$VM_SCRATCH/apt-peer.log")"
fi
dpkg-deb -x "$peer_deb" "$VM_SCRATCH/peer" || vm_abort "dpkg-deb -x $(basename "$peer_deb") failed"
bench_lisgd=$VM_SCRATCH/peer/usr/bin/lisgd
ldd "$bench_lisgd" > "$VM_SCRATCH/peer-ldd.txt" 2>&1
vm_assert_not "Debian's lisgd finds its libraries here" grep -q 'not found' "$VM_SCRATCH/peer-ldd.txt"
vm_note "lisgd $(dpkg-deb -f "$peer_deb" Version) beside gestured $(dpkg-query -W -f='${Version}' gestured)"
bench_gestured=/usr/bin/lisgd
. "$VM_REPO/Tests/vm/bench_lisgd_measure.sh"
