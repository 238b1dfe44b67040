#!/usr/bin/env bash
# Bracket plans for three typical scenes, as a photographer would ask for them.
# Run: examples/plan-scenes.sh   (uses $HDRSHOOT when set, else .build/debug/hdrshoot; run 'swift build' first)
# Its output is checked against plan-scenes.expected by examples/check.sh and by the test suite.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
hdrshoot="${HDRSHOOT:-$root/.build/debug/hdrshoot}"

show() {
    echo "\$ hdrshoot $*"
    "$hdrshoot" "$@"
    echo
}

# A room with a window: 8 EV between the shadows under the table and the sky outside.
show plan --shadow 1/4 --highlight 1/1000 --frames 5

# A street at dusk: little range, one set of three.
show plan --shadow 1/125 --highlight 1/500 --frames 3

# A church interior into the stained glass, 1.5 EV apart, each shared frame shot once.
show plan --shadow 2 --highlight 1/500 --frames 3 --ev 1.5 --dedupe

# A night scene: the shadows need 30", which the camera times itself, so the last set is shortened
# rather than stepping into bulb frames the shadows do not need.
show plan --shadow 30 --highlight 1/60 --frames 5 --ev 2

# A dark interior: the shadows need 4', so the last sets reach into bulb frames (held open in mode M).
show plan --shadow "4'" --highlight 1/60 --frames 5

# The dusk street again, as JSON for a script.
show plan --shadow 1/125 --highlight 1/500 --frames 3 --json
