import Posix
import Shooting

extension JournalError: CLIReportable {
    /// One line per case: 75 only while another hdrshoot shoots the shoot (wait, then resume); a missing state
    /// folder is a usage error (64); everything else needs a person (1), a full disk included.
    package var exitCode: ExitCode {
        switch self {
        case .inUse: .transientFailure
        case .noStateDirectory: .usage
        case .stateDirectoryUnavailable: .failure
        case .corrupt: .failure
        case .unreadable: .failure
        case .unsupportedFormat: .failure
        case .diskFull: .failure
        case .writeFailed: .failure
        case .alreadyExists: .failure
        case .notFound: .failure
        }
    }

    /// One line naming the file and what to do.
    package var cliMessage: String {
        switch self {
        case let .stateDirectoryUnavailable(path, code):
            return "cannot use the state directory \(path): \(Self.text(code))"
        case .noStateDirectory:
            return "no place for shoot journals: pass --state-dir DIR or set HDRSHOOT_STATE_DIR (HOME is not set)"
        case .corrupt(let path, _):
            return
                "the shoot journal \(path) is damaged or was edited, so it was left untouched; move it aside to continue"
        case let .unreadable(path, code):
            return "cannot read the shoot journal \(path): \(Self.text(code))"
        case let .unsupportedFormat(path, format):
            return
                "the shoot journal \(path) was written by a newer hdrshoot (format \(format)); update hdrshoot to use it"
        case .diskFull(let path):
            return "no space left to write the shoot journal \(path); free some space, then run `hdrshoot resume`"
        case let .writeFailed(path, code):
            return "cannot write the shoot journal \(path): \(Self.text(code))"
        case .alreadyExists(let path):
            return "a shoot journal \(path) already exists"
        case .notFound(let id):
            return "there is no shoot journal \(id)"
        case let .inUse(path, processID):
            let holder = processID.map { "hdrshoot (pid \($0))" } ?? "another hdrshoot"
            return "this shoot is being shot by \(holder) right now (\(path)); wait for it to finish or stop it first"
        }
    }

    /// Why a file could not be written, without the file: `no space left on the device`, `Permission denied`.
    var reasonText: String {
        switch self {
        case .diskFull: "no space left on the device"
        case .writeFailed(_, let code), .stateDirectoryUnavailable(_, let code), .unreadable(_, let code):
            Self.text(code)
        default: cliMessage
        }
    }

    /// The C library's text for an errno (`No such file or directory`).
    static func text(_ code: Errno) -> String {
        code.description
    }
}
