function __odds_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __odds_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __odds_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __odds_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __odds_parse_tokens -S
    set -l unparsed_tokens (__odds_tokens -pc)
    switch $unparsed_tokens[1]
    case 'odds'
        __odds_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'live'
            __odds_parse_subcommand 0 'provider=' 'sport=' 'replay=' 'speed=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
        case 'sports'
            __odds_parse_subcommand 0 'provider=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
        case 'event'
            __odds_parse_subcommand 1 'provider=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
        case 'stream'
            __odds_parse_subcommand 0 'provider=' 'sport=' 'limit=' 'replay=' 'speed=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
        case 'dash'
            __odds_parse_subcommand 0 'provider=' 'sport=' 'replay=' 'speed=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'stale-after=' 'version' 'h/help'
        case 'record'
            __odds_parse_subcommand 0 'provider=' 'sport=' 'o/output=' 'limit=' 'book=+' 'v/verbose' 'demo' 'version' 'h/help'
        case 'pulsescore'
            __odds_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'live'
                __odds_parse_subcommand 0 'sport=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'sports'
                __odds_parse_subcommand 0 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'event'
                __odds_parse_subcommand 1 'prematch' 'sport=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'leagues'
                __odds_parse_subcommand 0 'sport=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'events'
                __odds_parse_subcommand 0 'league=' 'tab=' 'sport=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'stream'
                __odds_parse_subcommand 0 'sport=' 'limit=' 'replay=' 'speed=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            end
        case 'tickodds'
            __odds_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'live'
                __odds_parse_subcommand 0 'sport=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'event'
                __odds_parse_subcommand 1 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'sports'
                __odds_parse_subcommand 0 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'status'
                __odds_parse_subcommand 0 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            case 'stream'
                __odds_parse_subcommand 0 'sport=' 'limit=' 'replay=' 'speed=' 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            end
        case 'config'
            __odds_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'path'
                __odds_parse_subcommand 0 'version' 'h/help'
            case 'show'
                __odds_parse_subcommand 0 'odds-format=' 'color=' 'v/verbose' 'demo' 'format=' 'json' 'ndjson' 'csv' 'book=+' 'version' 'h/help'
            end
        case 'sim'
            __odds_parse_subcommand 0 'port=' 'seed=' 'tick=' 'scenario=' 'heartbeat=' 'ping=' 'key=' 'basic-key=' 'no-rate-limit' 'tls-cert=' 'tls-key=' 'version' 'h/help'
        case 'help'
            __odds_parse_subcommand -r 1 'version'
        end
    end
end

function __odds_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __odds_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __odds_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __odds_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__odds_tokens -p)
    if test -z "$(__odds_tokens -t)"
        set -l index (count (__odds_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'odds' -f
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'live' -d 'Show live events with score, clock and main-market prices.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'sports' -d 'List the sports that have live events now.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'event' -d 'Show one live event with every market and selection.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'stream' -d 'Write the live feed as NDJSON, one normalized update per line, until interrupted.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'dash' -d 'A live full-screen dashboard of matches, scores, prices and incidents, fed by the WebSocket.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'record' -d 'Record every frame the live feed sends, verbatim, as NDJSON (replay it with --replay).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'pulsescore' -d 'PulseScore (Bet365 odds): live and pre-match events, leagues, sports, and the live WebSocket.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'tickodds' -d 'TickOdds: live events with scores, clock, incidents and odds; REST and the live WebSocket.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'config' -d 'Show where the config file is and what the settings resolve to.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'sim' -d 'Run the built-in PulseScore and TickOdds simulator on 127.0.0.1 until interrupted.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" provider' -l 'provider' -d 'Provider: pulsescore or tickodds (boltodds, sportsapi, sportsapi-v1 are planned). Default: config, else pulsescore.' -rfka 'pulsescore tickodds boltodds sportsapi sportsapi-v1'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" replay' -l 'replay' -d 'Replay a recording made by `odds record` instead of connecting (output is labelled as replayed).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" speed' -l 'speed' -d 'Replay speed: a factor of real time (1, 2, 0.5) or max. Default: 1.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds live" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" provider' -l 'provider' -d 'Provider: pulsescore or tickodds (boltodds, sportsapi, sportsapi-v1 are planned). Default: config, else pulsescore.' -rfka 'pulsescore tickodds boltodds sportsapi sportsapi-v1'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sports" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" provider' -l 'provider' -d 'Provider: pulsescore or tickodds (boltodds, sportsapi, sportsapi-v1 are planned). Default: config, else pulsescore.' -rfka 'pulsescore tickodds boltodds sportsapi sportsapi-v1'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds event" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" provider' -l 'provider' -d 'Provider: pulsescore or tickodds (boltodds, sportsapi, sportsapi-v1 are planned). Default: config, else pulsescore.' -rfka 'pulsescore tickodds boltodds sportsapi sportsapi-v1'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" limit' -l 'limit' -d 'Stop after this many updates (default: run until interrupted).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" replay' -l 'replay' -d 'Replay a recording made by `odds record` instead of connecting (output is labelled as replayed).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" speed' -l 'speed' -d 'Replay speed: a factor of real time (1, 2, 0.5) or max. Default: 1.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds stream" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" provider' -l 'provider' -d 'Provider: pulsescore or tickodds (boltodds, sportsapi, sportsapi-v1 are planned). Default: config, else pulsescore.' -rfka 'pulsescore tickodds boltodds sportsapi sportsapi-v1'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" replay' -l 'replay' -d 'Replay a recording made by `odds record` instead of connecting (output is labelled as replayed).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" speed' -l 'speed' -d 'Replay speed: a factor of real time (1, 2, 0.5) or max. Default: 1.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" stale-after' -l 'stale-after' -d 'Seconds without a message after which rows are shown as stale (default: the feed\'s own bound, 30 s for TickOdds, 120 s for PulseScore).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds dash" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record" provider' -l 'provider' -d 'Provider: pulsescore or tickodds (boltodds, sportsapi, sportsapi-v1 are planned). Default: config, else pulsescore.' -rfka 'pulsescore tickodds boltodds sportsapi sportsapi-v1'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record" o output' -s 'o' -l 'output' -d 'Write the recording here (default: stdout).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record" limit' -l 'limit' -d 'Stop after this many frames.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record"' -l 'book' -d 'Record this sportsbook\'s prices (repeatable; any case): multi-book feeds subscribe to these books only; frames stay verbatim. Single-book feeds refuse another book.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record" demo' -l 'demo' -d 'Record the built-in simulator (the recording is marked as demo data).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds record" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds pulsescore" -eq 1' -fa 'live' -d 'Live events of a sport (GET /live-events?sport=).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds pulsescore" -eq 1' -fa 'sports' -d 'Sports with live events now (GET /live-events/sports; path inferred, see the README).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds pulsescore" -eq 1' -fa 'event' -d 'One event: live by id (GET /live-events/{id}), or pre-match by fixture id with --prematch.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds pulsescore" -eq 1' -fa 'leagues' -d 'Pre-match leagues of a sport with their fixtures ([/{sport}]/leagues; soccer at the root).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds pulsescore" -eq 1' -fa 'events' -d 'Pre-match events of one league ([/{sport}]/events?league=&tab=).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds pulsescore" -eq 1' -fa 'stream' -d 'The live WebSocket broadcast of a sport as NDJSON updates (needs a PRO or MAX plan).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore live" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore sports" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" prematch' -l 'prematch' -d 'Fetch the pre-match event ([/{sport}]/events/{fi}).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore event" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore leagues" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" league' -l 'league' -d 'League name, as `odds pulsescore leagues` lists it.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" tab' -l 'tab' -d 'Market tab filter, e.g. Popular.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore events" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" sport' -l 'sport' -d 'Sport, e.g. soccer, tennis, basketball, ice-hockey. Default: config, else soccer.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" limit' -l 'limit' -d 'Stop after this many updates (default: run until interrupted).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" replay' -l 'replay' -d 'Replay a recording made by `odds record` instead of connecting (output is labelled as replayed).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" speed' -l 'speed' -d 'Replay speed: a factor of real time (1, 2, 0.5) or max. Default: 1.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds pulsescore stream" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds tickodds" -eq 1' -fa 'live' -d 'Live events (GET /api/v1/live/events), filtered to --sport when given.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds tickodds" -eq 1' -fa 'event' -d 'One live event with full odds (GET /api/v1/live/events/{fixtureId}).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds tickodds" -eq 1' -fa 'sports' -d 'Sports with live events (GET /api/v1/live/sports).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds tickodds" -eq 1' -fa 'status' -d 'Health of the TickOdds live scraper (GET /api/v1/live/status).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds tickodds" -eq 1' -fa 'stream' -d 'The live WebSocket as NDJSON updates: snapshot, match_start, update, match_end, heartbeat.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" sport' -l 'sport' -d 'Only this sport (default: every sport).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds live" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds event" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds sports" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" sport' -l 'sport' -d 'Subscribe to this sport only (default: all).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" limit' -l 'limit' -d 'Stop after this many updates (default: run until interrupted).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" replay' -l 'replay' -d 'Replay a recording made by `odds record` instead of connecting (output is labelled as replayed).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" speed' -l 'speed' -d 'Replay speed: a factor of real time (1, 2, 0.5) or max. Default: 1.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds tickodds stream" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds config" -eq 1' -fa 'path' -d 'Print the config file path ($XDG_CONFIG_HOME/odds/config.toml, or ODDS_CONFIG).'
complete -c 'odds' -n '__odds_should_offer_completions_for_positional "odds config" -eq 1' -fa 'show' -d 'Print the resolved settings and where each came from; keys are redacted.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config path" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config path" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" odds-format' -l 'odds-format' -d 'Odds format: decimal, american, fractional or probability.' -rfka 'decimal american fractional probability'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" color' -l 'color' -d 'Colour: auto (a terminal and NO_COLOR unset), always or never.' -rfka 'auto always never'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" v verbose' -l 'verbose' -s 'v' -d 'Log requests and connection events to stderr (keys redacted).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" demo' -l 'demo' -d 'Use the built-in simulator instead of the real provider (demo data, clearly labelled).'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" format' -l 'format' -d 'Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).' -rfka 'table tsv json ndjson csv'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" json' -l 'json' -d 'Shorthand for --format json.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" ndjson' -l 'ndjson' -d 'Shorthand for --format ndjson.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" csv' -l 'csv' -d 'Shorthand for --format csv.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show"' -l 'book' -d 'Only this sportsbook\'s prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds config show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" port' -l 'port' -d 'Port to listen on (0 picks a free one).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" seed' -l 'seed' -d 'Seed of the simulated world.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" tick' -l 'tick' -d 'Seconds between world ticks (0: only on /_sim/tick). Default: 1, or the scenario\'s.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" scenario' -l 'scenario' -d 'Load pattern: normal (the demo\'s pace) or firehose (200 ticks a second, for memory and speed measurements).' -rfka 'normal firehose'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" heartbeat' -l 'heartbeat' -d 'TickOdds heartbeat interval in seconds.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" ping' -l 'ping' -d 'Seconds between server pings.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" key' -l 'key' -d 'API key the simulator accepts (MAX plan).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" basic-key' -l 'basic-key' -d 'An extra key on the BASIC plan (REST only; the WebSocket closes 4003).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" no-rate-limit' -l 'no-rate-limit' -d 'Do not enforce the 3 requests/second limit.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" tls-cert' -l 'tls-cert' -d 'Serve HTTPS and WSS with this PEM certificate chain (with --tls-key).' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" tls-key' -l 'tls-key' -d 'The PEM private key of --tls-cert.' -rfka ''
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" version' -l 'version' -d 'Show the version.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds sim" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'odds' -n '__odds_should_offer_completions_for_flags_or_options "odds help" version' -l 'version' -d 'Show the version.'
