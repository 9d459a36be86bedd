#!/bin/sh
# The phase-by-phase refit from the end: label the game records with Okapi's own
# searches, fit, then relabel and refit the phases a band at a time from the endgame to
# the opening, each band's searches using the weights just fitted for the bands after it.
#
#   tools/refit.sh --data DIR --dir OUT [options]
#
# Steps, each a file under OUT (a step whose file exists is not run again, so the same
# command after a kill goes on where it stopped, and every step's output is written
# atomically by okapi itself):
#   start:  label every position of the chosen shards with a search by the base
#           evaluation (--weights, default the shipped one): labels/start.K.okl; fit every
#           phase on them: weights/start.bin, reports/start.md (the "before").
#   then, for each iteration I and each band A-B of --bands (from the last given to the
#   first: the endgame first, so give them from the opening to the end or in any order,
#   they are sorted by their first empties, highest first):
#           label the band's positions with a search by the newest weights (those
#           above --exact-from: an exact value does not depend on them):
#           labels/I.A-B.K.okl; fit the band's phases only (the others kept from the
#           newest weights) on every labelling so far, each laid over the ones before:
#           weights/I.A-B.bin, reports/I.A-B.md.
#   An iteration that does not lower the held-out error against the games' final results
#   (the "all" row of each report) ends the run; OUT/summary.md gives each step's
#   held-out errors by phase side by side, and its CPU time.
#
# Options (defaults in brackets):
#   --okapi BIN           the okapi binary [okapi]
#   --data DIR            the game records (as `okapi train eval --data`) [$OKAPI_DATA]
#   --dir OUT             where the labels, weights and reports go [refit]
#   --shards "K…"         the shards of the record source labelled and trained on [1]
#   --shard-count N       into how many shards the source is split [64]
#   --bands "A-B …"       the bands of empties refitted in turn [0-19 20-31 32-43 44-60]
#   --depth D --exact-from E --selectivity S
#                         the labelling search (as `okapi train label`) [6, 14, 2]
#   --weights W.bin       the base evaluation [the shipped one]
#   --iterations N        at most this many passes from the end to the opening [1]
#   --fit-options "…"     more options for every `okapi train eval`
#                         [--labelled-games-only --search-blend 1 --min-positions 10000 --solve 0]
#   --launcher "CMD"      runs a step's shard labellings, read one command a line on its
#                         standard input (GNU parallel, or `parallel -j N srun -N1 -n1
#                         --exclusive sh -c` in a Slurm allocation) [sh: one after another]
set -eu

OKAPI=okapi
DATA=${OKAPI_DATA:-}
DIR=refit
SHARDS=1
SHARD_COUNT=64
BANDS="0-19 20-31 32-43 44-60"
DEPTH=6
EXACT=14
SELECTIVITY=2
WEIGHTS=
ITERATIONS=1
FIT_OPTIONS="--labelled-games-only --search-blend 1 --min-positions 10000 --solve 0"
LAUNCHER=sh

die() { echo "refit.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || die "$1 needs a value"
    case $1 in
        --okapi) OKAPI=$2 ;;
        --data) DATA=$2 ;;
        --dir) DIR=$2 ;;
        --shards) SHARDS=$2 ;;
        --shard-count) SHARD_COUNT=$2 ;;
        --bands) BANDS=$2 ;;
        --depth) DEPTH=$2 ;;
        --exact-from) EXACT=$2 ;;
        --selectivity) SELECTIVITY=$2 ;;
        --weights) WEIGHTS=$2 ;;
        --iterations) ITERATIONS=$2 ;;
        --fit-options) FIT_OPTIONS=$2 ;;
        --launcher) LAUNCHER=$2 ;;
        *) die "unknown option $1 (see the comment at the top of this script)" ;;
    esac
    shift 2
done
[ -n "$DATA" ] || die "give the game records: --data DIR (or set OKAPI_DATA)"
[ -d "$DATA" ] || die "--data $DATA is not a folder"
command -v "$OKAPI" >/dev/null 2>&1 || die "no okapi binary at $OKAPI (give --okapi BIN)"
number() { case $2 in '' | *[!0-9]*) die "$1 $2 is not a number" ;; esac; }
number --iterations "$ITERATIONS"
number --shard-count "$SHARD_COUNT"
number --exact-from "$EXACT"
for k in $SHARDS; do number --shards "$k"; done
for b in $BANDS; do
    case $b in
        *[!0-9-]* | -* | *- | *-*-*) die "--bands: $b is not A-B" ;;
        *-*) [ "${b%-*}" -le "${b#*-}" ] || die "--bands: $b is no range" ;;
        *) die "--bands: $b is not A-B" ;;
    esac
done
# The bands from the end: highest first empties last, so sort by first empties, lowest
# first (the endgame is the fewest empties).
BANDS=$(for b in $BANDS; do echo "$b"; done | sort -n -t- -k1,1 | tr '\n' ' ')
mkdir -p "$DIR/labels" "$DIR/weights" "$DIR/reports" "$DIR/logs"
SEARCH="--depth $DEPTH --exact-from $EXACT --selectivity $SELECTIVITY"

# CPU: the seconds (user + system) of this shell's finished children so far (`times`
# run in this shell: in a command substitution it would count the subshell's).
cpu() {
    times > "$DIR/logs/times"
    CPU=$(tail -1 "$DIR/logs/times" | awk '{ split($1, u, "m"); split($2, s, "m");
        printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
}
spent() { cpu; awk -v a="$CPU" -v b="$1" 'BEGIN { printf "%.0f", a - b }'; }
log() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$DIR/summary.log" >&2; }

# label NAME EMPTIES WEIGHTS: the step's shards, run through the launcher.
label() {
    name=$1 empties=$2 w=$3
    cmds="$DIR/logs/$name.cmds"
    : > "$cmds"
    for k in $SHARDS; do
        out="$DIR/labels/$name.$k.okl"
        weights_option=""
        [ -n "$w" ] && weights_option="--weights $w"
        echo "$OKAPI train label --data $DATA $SEARCH --empties $empties $weights_option --shard $k/$SHARD_COUNT --out $out >> $DIR/logs/$name.$k.log 2>&1" >> "$cmds"
    done
    cpu
    before=$CPU
    log "label $name ($empties empties, weights ${w:-shipped})"
    $LAUNCHER < "$cmds"
    # A shard whose run was cut short is finished by running the step again: check.
    for k in $SHARDS; do
        grep -q " complete:" "$DIR/logs/$name.$k.log" ||
            die "the labelling $DIR/labels/$name.$k.okl did not finish (see $DIR/logs/$name.$k.log)"
    done
    spent "$before" > "$DIR/logs/spent"
    log "label $name done, $(cat "$DIR/logs/spent") s of CPU"
}

# fit NAME EMPTIES BASE LABEL-FILES…: the phases of EMPTIES, the others from BASE.
fit() {
    name=$1 empties=$2 base=$3
    shift 3
    out="$DIR/weights/$name.bin"
    [ -f "$out" ] && [ -f "$DIR/reports/$name.md" ] && return 0
    base_option=""
    [ -n "$base" ] && base_option="--base $base"
    cpu
    before=$CPU
    log "fit $name ($empties empties, base ${base:-none})"
    # shellcheck disable=SC2086
    "$OKAPI" train eval --data "$DATA" $FIT_OPTIONS --fit-empties "$empties" $base_option \
        --label-files "$@" --out "$out" --report "$DIR/reports/$name.md" \
        > "$DIR/logs/$name.fit.log" 2>&1 || die "the fit $name failed (see $DIR/logs/$name.fit.log)"
    spent "$before" > "$DIR/logs/spent"
    log "fit $name done, $(cat "$DIR/logs/spent") s of CPU"
}

# The held-out error against final results, all phases, of a report.
final_error() {
    awk '/^### Against final results/ { on = 1 } on && /^\| all \|/ { print $6; exit }' "$1"
}

files() { for k in $SHARDS; do printf '%s ' "$DIR/labels/$1.$k.okl"; done; }

label start 0-60 "$WEIGHTS"
# shellcheck disable=SC2046
fit start 0-60 "" $(files start)
LAYERS=$(files start)
NEWEST=$DIR/weights/start.bin
BEST=$(final_error "$DIR/reports/start.md")
log "start: held-out error against final results $BEST"
STEPS=start
i=1
while [ "$i" -le "$ITERATIONS" ]; do
    for band in $BANDS; do
        name=$i.$band
        # Positions solved exactly keep their value whatever the weights: label only
        # the band's positions the midgame search values.
        lo=${band%-*} hi=${band#*-}
        [ "$lo" -gt "$EXACT" ] || lo=$((EXACT + 1))
        if [ "$lo" -le "$hi" ]; then
            label "$name" "$lo-$hi" "$NEWEST"
            LAYERS="$LAYERS $(files "$name")"
        fi
        # shellcheck disable=SC2086
        fit "$name" "$band" "$NEWEST" $LAYERS
        NEWEST=$DIR/weights/$name.bin
        STEPS="$STEPS $name"
        log "$name: held-out error against final results $(final_error "$DIR/reports/$name.md")"
    done
    now=$(final_error "$DIR/reports/$name.md")
    if ! awk -v a="$now" -v b="$BEST" 'BEGIN { exit !(a < b) }'; then
        log "iteration $i: $now, not below $BEST: stop"
        break
    fi
    log "iteration $i: $now (was $BEST)"
    BEST=$now
    i=$((i + 1))
done

# The summary: each step's held-out errors by phase against final results.
{
    echo "# Refit from the end: held-out error by phase (discs, against final results)"
    echo
    printf '| empties |'
    for s in $STEPS; do printf ' %s |' "$s"; done
    echo
    printf '|---|'
    for s in $STEPS; do printf -- '---|'; done
    echo
    for s in $STEPS; do
        awk '/^### Against final results/ { on = 1; next } on && /^###/ { exit }
            on && /^\| [0-9a]/ { print $2 "\t" $6 }' "$DIR/reports/$s.md" > "$DIR/logs/$s.col"
    done
    first=$(echo "$STEPS" | cut -d' ' -f1)
    cut -f1 "$DIR/logs/$first.col" | while read -r e; do
        printf '| %s |' "$e"
        for s in $STEPS; do printf ' %s |' "$(awk -v e="$e" '$1 == e { print $2 }' "$DIR/logs/$s.col")"; done
        echo
    done
} > "$DIR/summary.md"
log "summary: $DIR/summary.md; newest weights $NEWEST"
