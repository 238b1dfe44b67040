#!/usr/bin/env bash
# A Raspberry Pi on the tripod: the Pi joins the camera's Wi-Fi, and the shoot runs detached from your SSH
# session, so closing the laptop does not stop it.
#
# Once, on the Pi (Raspberry Pi OS, 64-bit, Swift installed):
#   make install PREFIX=~/.local        # hdrshoot, its man page and completions
#   nmcli dev wifi connect 'DIRECT-xxxx:ILCE-7M3' password '...'   # the camera's Wi-Fi
# Then, over SSH:
#   ./raspberry-pi.sh                   # starts the series under systemd-run (else tmux)
#   journalctl --user -u hdrshoot-dusk -f     # or: tmux attach -t hdrshoot
#   hdrshoot status                     # where the series stands, from any session
# Try it without a camera or a Pi: CAMERA=simulator LAUNCHER=direct EVERY=3s COUNT=2 ./raspberry-pi.sh
set -euo pipefail
hdrshoot="${HDRSHOOT:-$(command -v hdrshoot || echo "$HOME/.local/bin/hdrshoot")}"
config="${XDG_CONFIG_HOME:-$HOME/.config}/hdrshoot/config"

# The defaults every shoot on this Pi uses: the camera's own Wi-Fi address and a folder on the SD card
# (or a USB stick). Written once; edit it with `hdrshoot config --edit`, check it with `hdrshoot config`.
if [ ! -e "$config" ]; then
    mkdir -p "$(dirname "$config")" "$HOME/shoots"
    cat > "$config" <<CONFIG
# Written by raspberry-pi.sh
camera = ${CAMERA:-192.168.122.1}
output = $HOME/shoots
frames = 5
CONFIG
fi
"$hdrshoot" config

# The shoot itself: a dusk series (see dusk-to-night.sh for what each option does).
count="${COUNT:-}"
if [ -n "$count" ]; then end=(--count "$count"); else end=(--until "${UNTIL:-21:00}"); fi
shoot=("$hdrshoot" run --shadow "${SHADOW:-1/125}" --highlight "${HIGHLIGHT:-1/1000}" --every "${EVERY:-2m}"
    "${end[@]}" --shift 1/3 --confirm)

launcher="${LAUNCHER:-}"
if [ -z "$launcher" ]; then
    if systemctl --user show-environment >/dev/null 2>&1; then launcher=systemd
    elif command -v tmux >/dev/null; then launcher=tmux
    else launcher=direct; fi
fi
case "$launcher" in
    systemd)
        # A transient user service: survives the SSH session (with `loginctl enable-linger $USER` once),
        # its output goes to the journal.
        systemd-run --user --unit hdrshoot-dusk --collect -- "${shoot[@]}"
        echo "Started: journalctl --user -u hdrshoot-dusk -f" ;;
    tmux)
        # A tmux session: attach to watch the live line, detach with Ctrl-b d.
        tmux new-session -d -s hdrshoot "$(printf '%q ' "${shoot[@]}")"
        echo "Started: tmux attach -t hdrshoot" ;;
    direct)
        # In the foreground (a SIGHUP does not end it either: hdrshoot shoots on without the terminal).
        "${shoot[@]}" ;;
    *) echo "LAUNCHER must be systemd, tmux or direct" >&2; exit 64 ;;
esac
