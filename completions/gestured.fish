# fish completion for gestured(8). Installed as
# $(PREFIX)/share/fish/vendor_completions.d/gestured.fish by `make install`.

# Recognizer names for --trace: the [recognizer.NAME] tables of the config file.
function __gestured_recognizers
    set -l config /etc/gestured/gestured.toml
    set -q GESTURED_CONFIG; and set config $GESTURED_CONFIG
    set -l tokens (commandline -opc)
    for i in (seq (count $tokens))
        if test "$tokens[$i]" = --config; and test $i -lt (count $tokens)
            set config $tokens[(math $i + 1)]
        else if string match -q -- '--config=*' $tokens[$i]
            set config (string replace -- '--config=' '' $tokens[$i])
        end
    end
    echo all
    test -r $config; and sed -n 's/^[[:space:]]*\[recognizer\.\([^].]*\)\].*/\1/p' $config 2>/dev/null
end

complete -c gestured -f
complete -c gestured -l stdout -d 'Print each gesture event as one JSON line on stdout'
complete -c gestured -l config -r -F -d 'Config file'
complete -c gestured -l failures -d 'Also print failed transitions, with their reasons'
complete -c gestured -s v -l verbose -d 'Log every skipped input node and other details'
complete -c gestured -l trace -x -a '(__gestured_recognizers)' -d 'Trace a recognizer live on stderr'
complete -c gestured -l socket -r -F -d 'Where subscribers connect'
complete -c gestured -l no-socket -d "Do not open the subscribers' socket (with --stdout)"
complete -c gestured -l control-group -x -a '(__fish_complete_groups)' -d 'Group whose members may rotate, switch the profile, pause and resume'
complete -c gestured -l version -d 'Print the version and exit'
complete -c gestured -s h -l help -d 'Show help information'
