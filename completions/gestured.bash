# bash completion for gestured(8). Installed as
# $(PREFIX)/share/bash-completion/completions/gestured by `make install`.

# Recognizer names for --trace: the [recognizer.NAME] tables of the config file.
_gestured_recognizers() {
    local config=${GESTURED_CONFIG:-/etc/gestured/gestured.toml} i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --config) config=${COMP_WORDS[i + 1]} ;;
            --config=*) config=${COMP_WORDS[i]#--config=} ;;
        esac
    done
    [ -r "$config" ] && sed -n 's/^[[:space:]]*\[recognizer\.\([^].]*\)\].*/\1/p' "$config" 2>/dev/null
}

_gestured() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    case $prev in
        --config)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --socket)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --trace)
            COMPREPLY=($(compgen -W "all $(_gestured_recognizers)" -- "$cur"))
            return ;;
        --control-group)
            COMPREPLY=($(compgen -g -- "$cur"))
            return ;;
    esac
    COMPREPLY=($(compgen -W '--stdout --config --failures -v --verbose --trace --socket --no-socket --control-group --version -h --help' -- "$cur"))
}

complete -o filenames -F _gestured gestured
