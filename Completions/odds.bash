#!/bin/bash

__odds_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__odds_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__odds_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__odds_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_odds() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    live|sports|event|stream|dash|value|arb|alert|record|pulsescore|tickodds|boltodds|sportsapi|sportsapi-v1|watch|history|bets|config|sim|help|help)
        # Offer subcommand argument completions
        "_odds_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'live sports event stream dash value arb alert record pulsescore tickodds boltodds sportsapi sportsapi-v1 watch history bets config sim help help' -- "${cur}"))
        ;;
    esac
}

_odds_live() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --explain --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider --replay --speed --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion live -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion live -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sports() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--provider --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sports -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_event() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--provider --odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion event -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_stream() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider --limit --history --replay --speed --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion stream -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion stream -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_dash() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider --replay --speed --fair --devig --max-age --history --odds-format --color --format --min-ev --stale-after --move-window)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion dash -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--fair')
        return
        ;;
    '--devig')
        __odds_add_completions -W 'multiplicative'$'\n''additive'$'\n''power'$'\n''shin'
        return
        ;;
    '--max-age')
        return
        ;;
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion dash -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--min-ev')
        return
        ;;
    '--stale-after')
        return
        ;;
    '--move-window')
        return
        ;;
    esac
}

_odds_value() {
    repeating_flags=()
    non_repeating_flags=(--watch --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider --fair --devig --max-age --min-ev --limit --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion value -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--fair')
        return
        ;;
    '--devig')
        __odds_add_completions -W 'multiplicative'$'\n''additive'$'\n''power'$'\n''shin'
        return
        ;;
    '--max-age')
        return
        ;;
    '--min-ev')
        return
        ;;
    '--limit')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion value -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_arb() {
    repeating_flags=()
    non_repeating_flags=(--watch --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider --fair --devig --max-age --stake --round --min-profit --limit --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion arb -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--fair')
        return
        ;;
    '--devig')
        __odds_add_completions -W 'multiplicative'$'\n''additive'$'\n''power'$'\n''shin'
        return
        ;;
    '--max-age')
        return
        ;;
    '--stake')
        return
        ;;
    '--round')
        return
        ;;
    '--min-profit')
        return
        ;;
    '--limit')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion arb -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_alert() {
    repeating_flags=()
    non_repeating_flags=(--once --initial --bell --notify --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider --replay --speed --match --timeout --exec --webhook --fair --devig --max-age --odds-format --color --format)
    __odds_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion alert -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--match')
        return
        ;;
    '--timeout')
        return
        ;;
    '--exec')
        return
        ;;
    '--webhook')
        return
        ;;
    '--fair')
        return
        ;;
    '--devig')
        __odds_add_completions -W 'multiplicative'$'\n''additive'$'\n''power'$'\n''shin'
        return
        ;;
    '--max-age')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion alert -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_record() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider -o --output --limit)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion record -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '-o'|'--output')
        return
        ;;
    '--limit')
        return
        ;;
    '--book')
        return
        ;;
    esac
}

_odds_pulsescore() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    live|sports|event|leagues|events|stream)
        # Offer subcommand argument completions
        "_odds_pulsescore_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'live sports event leagues events stream' -- "${cur}"))
        ;;
    esac
}

_odds_pulsescore_live() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore live -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore live -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_pulsescore_sports() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore sports -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_pulsescore_event() {
    repeating_flags=()
    non_repeating_flags=(--prematch --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore event -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore event -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_pulsescore_leagues() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore leagues -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore leagues -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_pulsescore_events() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--league --tab --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--league')
        return
        ;;
    '--tab')
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore events -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore events -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_pulsescore_stream() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--limit --history --replay --speed --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore stream -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion pulsescore stream -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_tickodds() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    live|event|sports|status|stream)
        # Offer subcommand argument completions
        "_odds_tickodds_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'live event sports status stream' -- "${cur}"))
        ;;
    esac
}

_odds_tickodds_live() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--sport --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion tickodds live -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_tickodds_event() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion tickodds event -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_tickodds_sports() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion tickodds sports -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_tickodds_status() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion tickodds status -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_tickodds_stream() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--sport --limit --history --replay --speed --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion tickodds stream -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    live|info|games|markets|parlays|esports|stream|pbp|scores|boxscore|stats|match-info)
        # Offer subcommand argument completions
        "_odds_boltodds_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'live info games markets parlays esports stream pbp scores boxscore stats match-info' -- "${cur}"))
        ;;
    esac
}

_odds_boltodds_live() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds live -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds live -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_info() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds info -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_games() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--sport --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds games -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_markets() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--sport --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds markets -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_parlays() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds parlays -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_esports() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds esports -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_stream() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --game --market --book)
    non_repeating_options=(--limit --history --replay --speed --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        return
        ;;
    '--game')
        return
        ;;
    '--market')
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds stream -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_pbp() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--game --book)
    non_repeating_options=(--limit --history --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--game')
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds pbp -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_scores() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--game --book)
    non_repeating_options=(--limit --history --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--game')
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds scores -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_boxscore() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds boxscore -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_stats() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds stats -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_boltodds_match-info() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion boltodds match-info -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    live|match|incidents|stats|lineups|odds|stream)
        # Offer subcommand argument completions
        "_odds_sportsapi_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'live match incidents stats lineups odds stream' -- "${cur}"))
        ;;
    esac
}

_odds_sportsapi_live() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi live -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi live -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi_match() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi match -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi_incidents() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi incidents -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi_stats() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi stats -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi_lineups() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi lineups -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi_odds() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi odds -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi_stream() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--channel --sport --book)
    non_repeating_options=(--limit --history --replay --speed --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--channel')
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi stream -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi stream -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi-v1() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    live|stream)
        # Offer subcommand argument completions
        "_odds_sportsapi-v1_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'live stream' -- "${cur}"))
        ;;
    esac
}

_odds_sportsapi-v1_live() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi-v1 live -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi-v1 live -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sportsapi-v1_stream() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--channel --sport --book)
    non_repeating_options=(--limit --history --replay --speed --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--channel')
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi-v1 stream -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion sportsapi-v1 stream -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_watch() {
    repeating_flags=()
    non_repeating_flags=(--bell --no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider --history --odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion watch -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion watch -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_history() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    collect|matches|show|chart|stats)
        # Offer subcommand argument completions
        "_odds_history_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'collect matches show chart stats' -- "${cur}"))
        ;;
    esac
}

_odds_history_collect() {
    repeating_flags=()
    non_repeating_flags=(--no-history --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--sport --book)
    non_repeating_options=(--provider --limit --history --replay --speed --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __odds_add_completions -W 'pulsescore'$'\n''tickodds'$'\n''boltodds'$'\n''sportsapi'$'\n''sportsapi-v1'$'\n''all'
        return
        ;;
    '--sport')
        __odds_add_completions -W "$(__odds_custom_complete ---completion history collect -- --sport "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    '--limit')
        return
        ;;
    '--history')
        return
        ;;
    '--replay')
        return
        ;;
    '--speed')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion history collect -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_history_matches() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--history --since --team --provider --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--history')
        return
        ;;
    '--since')
        return
        ;;
    '--team')
        return
        ;;
    '--provider')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion history matches -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_history_show() {
    repeating_flags=()
    non_repeating_flags=(--ascii --all --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--history --since --provider --market --odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--history')
        return
        ;;
    '--since')
        return
        ;;
    '--provider')
        return
        ;;
    '--market')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion history show -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_history_chart() {
    repeating_flags=()
    non_repeating_flags=(--ascii --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--history --since --market --selection --svg --height --odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--history')
        return
        ;;
    '--since')
        return
        ;;
    '--market')
        return
        ;;
    '--selection')
        return
        ;;
    '--svg')
        return
        ;;
    '--height')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion history chart -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_history_stats() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--history --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion history stats -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_bets() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|report|grade|remove|import|export)
        # Offer subcommand argument completions
        "_odds_bets_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list report grade remove import export' -- "${cur}"))
        ;;
    esac
}

_odds_bets_add() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--provider --market --line --at --note --history --odds-format --color --format)
    __odds_offer_flags_options 4

    # Offer option value completions
    case "${prev}" in
    '--provider')
        return
        ;;
    '--market')
        return
        ;;
    '--line')
        return
        ;;
    '--at')
        return
        ;;
    '--note')
        return
        ;;
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion bets add -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_bets_list() {
    repeating_flags=()
    non_repeating_flags=(--open --settled --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--since --close --devig --history --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--since')
        return
        ;;
    '--close')
        return
        ;;
    '--devig')
        return
        ;;
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion bets list -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_bets_report() {
    repeating_flags=()
    non_repeating_flags=(--ascii --verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--by --since --close --devig --history --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--by')
        return
        ;;
    '--since')
        return
        ;;
    '--close')
        return
        ;;
    '--devig')
        return
        ;;
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion bets report -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_bets_grade() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--close --devig --history --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--close')
        return
        ;;
    '--devig')
        return
        ;;
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion bets grade -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_bets_remove() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--history --odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion bets remove -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_bets_import() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--history --odds-format --color --format)
    __odds_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion bets import -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_bets_export() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--history --odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--history')
        return
        ;;
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion bets export -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_config() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    path|show)
        # Offer subcommand argument completions
        "_odds_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'path show' -- "${cur}"))
        ;;
    esac
}

_odds_config_path() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options 0
}

_odds_config_show() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --demo --json --ndjson --csv --links --version -h --help)
    repeating_options=(--book)
    non_repeating_options=(--odds-format --color --format)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--odds-format')
        __odds_add_completions -W 'decimal'$'\n''american'$'\n''fractional'$'\n''probability'
        return
        ;;
    '--color')
        __odds_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __odds_add_completions -W 'table'$'\n''tsv'$'\n''json'$'\n''ndjson'$'\n''csv'
        return
        ;;
    '--book')
        __odds_add_completions -W "$(__odds_custom_complete ---completion config show -- --book "${COMP_CWORD}" "$(__odds_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_odds_sim() {
    repeating_flags=()
    non_repeating_flags=(--no-rate-limit --version -h --help)
    repeating_options=()
    non_repeating_options=(--port --seed --tick --scenario --heartbeat --ping --key --basic-key --tls-cert --tls-key)
    __odds_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--port')
        return
        ;;
    '--seed')
        return
        ;;
    '--tick')
        return
        ;;
    '--scenario')
        __odds_add_completions -W 'normal'$'\n''firehose'
        return
        ;;
    '--heartbeat')
        return
        ;;
    '--ping')
        return
        ;;
    '--key')
        return
        ;;
    '--basic-key')
        return
        ;;
    '--tls-cert')
        return
        ;;
    '--tls-key')
        return
        ;;
    esac
}

_odds_help() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options -1
}

_odds_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __odds_offer_flags_options -1
}

complete -o filenames -F _odds odds
