#!/usr/bin/env bash
# A dusk-to-night interval series: the same bracket every few minutes from sunset into the night, each
# repetition a third of a stop slower as the light goes, one folder per repetition (rep-001, rep-002, ...).
#
# Meter at sunset and start it:
#   SHADOW=1/15 HIGHLIGHT=1/2000 UNTIL=19:45 ./dusk-to-night.sh
# Stop it with q or Ctrl-C; `hdrshoot resume` continues the series on its original clock times
# (`hdrshoot resume --skip-missed` skips the starts that passed meanwhile).
# Try it without a camera: CAMERA=simulator EVERY=3s COUNT=2 SHADOW=1/125 HIGHLIGHT=1/1000 ./dusk-to-night.sh
set -euo pipefail
hdrshoot="${HDRSHOOT:-hdrshoot}"
shadow="${SHADOW:-1/15}"          # the shadows at sunset
highlight="${HIGHLIGHT:-1/2000}"  # the sky at sunset
every="${EVERY:-2m}"              # start a repetition this often (it must fit; the confirmation says if not)
shift_ev="${SHIFT:-1/3}"          # each repetition this much slower (the light drops about 1 EV in 10 minutes)
output="${OUTPUT:-dusk-$(date +%Y%m%d-%H%M)}"

# End: a number of repetitions, or a clock time (today, or tomorrow if it has passed).
if [ -n "${COUNT:-}" ]; then end=(--count "$COUNT"); else end=(--until "${UNTIL:-21:00}"); fi
camera_option=()
[ -n "${CAMERA:-}" ] && camera_option=(--camera "$CAMERA")

# --longest keeps the slowest exposure of the night under 30" (no bulb), so each repetition fits its interval.
"$hdrshoot" run --shadow "$shadow" --highlight "$highlight" --frames 5 --ev 1 --longest 30s \
    --every "$every" "${end[@]}" --shift "$shift_ev" "${camera_option[@]}" --confirm --output "$output"
# Previews of every repetition (rep-001/set-01/merged.jpg, ...), to pick the moment the sky and the lights
# balance; each set's merge.sh does the same with alignment when you want the full-size merge.
if command -v enfuse >/dev/null; then "$hdrshoot" merge "$output" --no-align --format jpg; fi
echo "Series done: $output (one folder per repetition, each set with a merge.sh)"
