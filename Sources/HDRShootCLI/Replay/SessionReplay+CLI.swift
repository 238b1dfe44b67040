import CameraSimulator
import ShootKit

/// `--replay-session LOG` on the command line: the option, the replay it asks for and the line saying what it
/// reproduces. The replay itself (reading the log, the body it makes) is the simulator's (`SessionReplay`).
extension SessionReplay {
    /// `--replay-session LOG` of `camera`, `run` and `resume` (with `--camera simulator`).
    static let option = OptionSpec.value(
        "replay-session", placeholder: "<log>",
        help: "With --camera simulator: the simulator becomes the body this session log recorded.")

    /// The replay `--replay-session` asks for, said on standard error; nil without the option. It needs
    /// `--camera simulator` (a usage error otherwise).
    static func fromOption(_ arguments: ParsedArguments, output: any OutputStreams) throws -> SessionReplay? {
        guard let path = arguments.string("replay-session") else { return nil }
        guard arguments.string("camera") == CameraTarget.simulatorAddress else {
            throw UsageError(
                "--replay-session needs --camera simulator (the simulator becomes the logged body)",
                command: arguments.command)
        }
        let replay = try load(path)
        output.writeError(replay.summary)
        return replay
    }
}

extension SessionReplayError: CLIReportable {
    /// One line saying what is wrong with the log.
    package var cliMessage: String {
        switch self {
        case let .unreadable(path, reason): "cannot read the session log \(path): \(reason)"
        case let .noSession(path):
            "\(path) is not a session log of a camera session (it has no GetDeviceInfo); "
                + "`hdrshoot log` lists the sessions"
        }
    }

    /// 1: the log cannot be replayed.
    package var exitCode: ExitCode { .failure }
}
