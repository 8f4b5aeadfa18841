# Sourced by the scenarios that run lisgd and gestured's `lisgd` on Sxmo's bindings
# (lisgd_differential, bench_lisgd, bench_lisgd_trixie).
#
# sxmo_bindings — Sxmo's 46 bindings in Sxmo's order (its hook without -s, which
# lisgd 0.3.7 lacks), one a line: lisgd's -g without the command, then the label.
sxmo_bindings() {
    cat <<'B'
1,DRUL,BR,*,bottomrightcorner
1,DLUR,BL,*,bottomleftcorner
1,ULDR,TL,*,topleftcorner
1,URDL,TR,*,toprightcorner
1,LR,B,L,rightbottomedge
1,RL,B,L,leftbottomedge
1,LR,L,*,rightleftedge
1,RL,R,*,leftrightedge
1,DU,L,*,P,upleftedge
1,UD,L,*,P,downleftedge
1,LR,T,*,P,righttopedge
1,RL,T,*,P,lefttopedge
1,DU,B,*,upbottomedge
1,UD,B,*,downbottomedge
1,UD,T,*,downtopedge
1,DU,T,*,uptopedge
2,UD,T,*,twodowntopedge
2,UD,B,*,twodownbottomedge
1,DU,R,*,P,uprightedge
1,UD,R,*,P,downrightedge
1,LR,R,S,rightrightedge_short
1,RL,L,S,leftrightedge_short
1,RL,*,L,longoneleft
1,LR,*,L,longoneright
1,DU,*,L,longoneup
1,UD,*,L,longonedown
1,RL,*,M,mediumoneleft
1,LR,*,M,mediumoneright
1,DU,*,M,mediumoneup
1,UD,*,M,mediumonedown
1,RL,*,*,oneleft
1,LR,*,*,oneright
1,DU,*,*,oneup
1,UD,*,*,onedown
1,DRUL,*,*,upleft
1,URDL,*,*,downleft
1,DLUR,*,*,upright
1,ULDR,*,*,downright
2,RL,*,*,twoleft
2,LR,*,*,tworight
2,DU,*,*,twoup
2,UD,*,*,twodown
3,RL,*,*,threeleft
3,LR,*,*,threeright
3,DU,*,*,threeup
3,UD,*,*,threedown
B
}

# Sxmo's lisgd options for the phone panel (Tests/fixtures/phone): its screen in
# pixels and lisgd's thresholds.
SXMO_LISGD_OPTIONS="-w 720 -h 1440 -t 125 -T 60"

# sxmo_launcher SCRIPT LOG STAMP PROGRAM [ARG…] — writes SCRIPT, which execs
# PROGRAM ARG… with Sxmo's bindings, each binding's command appending its label
# to LOG with shell builtins only (lisgd waits for every command; a fork costs
# about 0.1 s under TCG): "LABEL", or with STAMP=uptime "UPTIME LABEL".
sxmo_launcher() {
    _script=$1 _log=$2 _stamp=$3
    shift 3
    {
        printf 'exec'
        for _a in "$@"; do printf " '%s'" "$_a"; done
        sxmo_bindings | while IFS= read -r _b; do
            if [ "$_stamp" = uptime ]; then
                printf " -g '%s,read t _ < /proc/uptime; echo \"\$t %s\" >> %s'" "${_b%,*}" "${_b##*,}" "$_log"
            else
                printf " -g '%s,echo %s >> %s'" "${_b%,*}" "${_b##*,}" "$_log"
            fi
        done
        printf '\n'
    } > "$_script"
}
