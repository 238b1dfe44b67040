#!/usr/bin/env bash
# A real-estate interior session: one bracket per room, each merged into a preview as soon as it is shot.
#
# Copy it, set your camera and readings, then walk the house:
#   ./real-estate-interior.sh Kitchen "Living room" "Master bedroom"
# At each room it asks you to move the tripod and meter (the darkest shadow you want detail in, the
# brightest highlight: the window), shoots the bracket, and fuses all its frames with enfuse (merged.tif).
# Settings come from the environment, else from your config file (~/.config/hdrshoot/config), e.g.:
#     camera = 192.168.122.1
#     frames = 5
#     ev = 1
#     output = ~/Pictures/listings
# Try it without a camera: CAMERA=simulator SHADOW=1/30 HIGHLIGHT=1/1000 ./real-estate-interior.sh Kitchen
set -euo pipefail
hdrshoot="${HDRSHOOT:-hdrshoot}"
session="${SESSION:-listing-$(date +%Y%m%d)}"    # one folder for the whole house
camera_option=()
[ -n "${CAMERA:-}" ] && camera_option=(--camera "$CAMERA")   # else the config file's camera, else the last one

[ "$#" -gt 0 ] || set -- Kitchen "Living room"
mkdir -p "$session"
for room in "$@"; do
    shadow="${SHADOW:-}" highlight="${HIGHLIGHT:-}"
    if [ -t 0 ] && [ -z "$shadow" ]; then
        # On a terminal: ask for this room's readings (a window needs a faster highlight than a hallway).
        read -r -p "Tripod in the $room. Shadow reading (e.g. 1/4): " shadow
        read -r -p "Highlight reading (e.g. 1/1000): " highlight
    fi
    echo "== $room: shadow ${shadow:-1/4}, highlight ${highlight:-1/1000}"
    # --confirm: no question per room; the folder name keeps the room's name (spaces are fine).
    "$hdrshoot" run --shadow "${shadow:-1/4}" --highlight "${highlight:-1/1000}" "${camera_option[@]}" \
        --confirm --output "$session/$room"
    # A preview of the whole bracket right away, to check the windows are not blown out before moving on.
    # The frames of a tripod that never moved need no aligning; drop --no-align when shooting on a soft floor.
    if command -v enfuse >/dev/null; then
        "$hdrshoot" merge "$session/$room" --no-align --format jpg
    else
        echo "(enfuse is not installed: sudo apt install enfuse hugin-tools; the room's merge.sh is for later)"
    fi
done
echo "Session done: $session"
