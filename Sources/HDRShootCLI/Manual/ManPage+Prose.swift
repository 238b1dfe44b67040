extension ManPage {
    /// The man page's prose, which the Markdown reference's tool page (`docs/commands/hdrshoot.md`) shows too:
    /// the exit codes, environment and files are written here and nowhere else.
    enum Prose {
        /// The NAME line's description.
        static let name = "automated HDR bracketing for Sony Alpha cameras over Wi-Fi"

        /// DESCRIPTION.
        static let description = """
            hdrshoot shoots HDR brackets with a Sony Alpha camera over the camera's own Wi-Fi, from a Linux laptop
            or a Raspberry Pi. You meter the darkest shadow and the brightest highlight you want detail in; hdrshoot
            turns the two readings into bracket sets of shutter speeds, then drives the camera over PTP/IP (TCP port
            15740) to shoot every frame without you touching the tripod.

            A busy camera is retried, a dropped Wi-Fi connection is reconnected, the shoot pauses by itself when the
            computer leaves the camera's network, and a shoot killed halfway continues with 'hdrshoot resume' from a
            journal on disk. The bracket is the unit: its sets are camera-sized pieces of one exposure range, so a
            finished shoot gets one merge.sh beside its manifest that fuses every frame of the bracket into one
            merged.tif (align_image_stack, then enfuse; frames it cannot align are merged as shot), and
            'hdrshoot merge' runs the same steps.

            Options are written --name value or --name=value. A wrong flag, a missing or bad value is a usage error:
            one error line and a hint on standard error, exit 64. Defaults for the options used at every tripod
            position can be kept in the config file (see FILES); flags always win over it.
            """

        /// EXIT STATUS: the one list of exit codes (the man page, and docs/commands/hdrshoot.md, which the README
        /// and docs/troubleshooting.md link to).
        static let exitStatus: [(String, String)] = [
            ("0", "Success: the shoot is complete (also --help, --version)."),
            (
                "1",
                "Other failure: the journal cannot be written mid-shoot; a state folder that is full or unusable when "
                    + "run starts (nothing was shot or recorded, so there is nothing to resume); confirmation "
                    + "declined; resume --id of an unknown or complete shoot; nothing to resume; merge could not "
                    + "merge a set."
            ),
            (
                "64",
                "Usage error, including run without --confirm when not on a terminal, a --camera that is a near miss "
                    + "of simulator, --link-shared without --dedupe, and an --output folder that holds another shoot."
            ),
            (
                "69",
                "Camera unavailable or cannot shoot, for camera, run and resume alike: refused after 4 attempts, "
                    + "unreachable, lost while checking it, not a Sony, wrong mode, speeds missing, and a shoot whose "
                    + "camera could not shoot (focus that never locks, the wrong mode) before this run captured "
                    + "anything; for simulate, the address cannot be listened on (port in use); for merge, enfuse or "
                    + "align_image_stack is not installed."
            ),
            ("70", "Internal error (a bug in hdrshoot)."),
            (
                "75",
                "A shoot that stopped: hdrshoot resume continues, whatever stopped it (q or Ctrl-C, the mode dial "
                    + "turned mid-shoot, a camera fault, a reconnect that gave up); also resume of a shoot another "
                    + "hdrshoot is shooting."
            ),
            (
                "78",
                "The config file is malformed (one error line names the file, the line and what is wrong), or "
                    + "config --edit's editor failed."
            )
        ]

        /// ENVIRONMENT.
        static let environment: [(String, String)] = [
            (
                "XDG_CONFIG_HOME",
                "Holds hdrshoot/config, the remembered camera and the host identity (default ~/.config)."
            ),
            ("XDG_STATE_HOME", "Holds hdrshoot/, the shoot journals (default ~/.local/state)."),
            ("HDRSHOOT_STATE_DIR", "The journal folder itself, before XDG_STATE_HOME; --state-dir wins over it."),
            (
                "HDRSHOOT_CONNECT_BACKOFF",
                "The waits between connection attempts for run, resume and camera (default 2s,5s,10s)."
            ),
            (
                "HDRSHOOT_TIME_SCALE",
                "A test hook: a whole number N makes the waits for the camera's sake (a BULB hold, a Long Exposure "
                    + "NR dark frame, the settle after connecting, the grace before fetching behind a release that "
                    + "shows nothing yet, busy and connection retries, the waits before an SSH tunnel is opened "
                    + "again, a series' schedule, the "
                    + "2 minutes given to press OK on a pairing screen, said and counted down as 2 minutes) N "
                    + "times shorter, to match hdrshoot "
                    + "simulate --time-scale N; the margins a body gets to process an image or to show a set "
                    + "shutter speed shrink as much but not below 2 s (or HDRSHOOT_SHORTEST_MARGIN); timeouts stay "
                    + "real. Unset for a real camera."
            ),
            (
                "HDRSHOOT_SHORTEST_MARGIN",
                "A test hook beside HDRSHOOT_TIME_SCALE: the shortest those margins get, a duration above 0 and at "
                    + "most 2s (200ms), for a test whose body never shows what a margin waits for. Unset for a real "
                    + "camera."
            ),
            (
                "HDRSHOOT_PAIRING_HINT",
                "A test hook: how long hdrshoot waits for a body to acknowledge before it says to press OK on the "
                    + "body's pairing screen (default 2s; at most 5s). Unset for a real camera."
            ),
            (
                "HDRSHOOT_SSH_FORWARD_PORT",
                "A test hook: the camera-side port the --ssh tunnel forwards to (localhost:15740 on a body); the "
                    + "tests' sshd permits only their simulator's port. Unset for a real camera."
            ),
            (
                "XDG_RUNTIME_DIR",
                "Where --ssh makes the private folder of the named pipe that hands ssh the password (else /tmp)."
            ),
            ("VISUAL, EDITOR", "The editor hdrshoot config --edit opens (else vi)."),
            ("HOME", "Where the XDG folders are when their variables are not set.")
        ]

        /// FILES.
        static let files: [(String, String)] = [
            (
                "$XDG_CONFIG_HOME/hdrshoot/config",
                "Defaults: key = value lines, # comments, [camera NAME] sections; keys camera, frames, ev, scale, "
                    + "order, dedupe, longest, output, transfer. hdrshoot config shows what is in effect."
            ),
            ("$XDG_CONFIG_HOME/hdrshoot/last-camera", "The camera address used last, for --camera left out."),
            (
                "$XDG_STATE_HOME/hdrshoot/known_hosts",
                "The SSH host keys of the cameras reached with --ssh (mode 0600): kept on first contact or from "
                    + "--ssh-fingerprint; a changed key is refused."
            ),
            ("$XDG_STATE_HOME/hdrshoot/ID.json", "A shoot's journal, which resume and status read."),
            (
                "$XDG_STATE_HOME/hdrshoot/logs/",
                "Session logs (JSON Lines) of run, resume, camera and discover; hdrshoot log lists and exports them."
            ),
            (
                "OUTPUT/manifest.json",
                "Every set's bracket and every frame of a shoot: planned, used and actual speed, files, time."
            ),
            (
                "OUTPUT/merge.sh",
                "Aligns and fuses the whole bracket, every distinct exposure once, into OUTPUT/merged.tif."
            )
        ]

        /// EXAMPLES: a caption and the commands.
        static let examples: [(String, String)] = [
            ("Plan only (no camera):", "hdrshoot plan --shadow 1/4 --highlight 1/1000 --frames 5"),
            (
                "Shoot against the built-in simulated camera, then merge the whole bracket:",
                "hdrshoot run --shadow 1/4 --highlight 1/1000 --camera simulator --confirm --output shoot\nhdrshoot merge shoot"
            ),
            (
                "A dusk series, every 2 minutes until 19:45, each a third of a stop slower:",
                "hdrshoot run --shadow 1/15 --highlight 1/2000 --every 2m --until 19:45 --shift 1/3"
            ),
            ("Continue the last stopped shoot:", "hdrshoot status\nhdrshoot resume"),
            (
                "Meter a simulated scene with probe frames, then shoot what it found, extending the bracket if short:",
                "hdrshoot run --auto --check extend --camera simulator --scene interior-window --confirm"
            ),
            ("Tab completion in bash:", "source <(hdrshoot completions bash)")
        ]
    }
}
