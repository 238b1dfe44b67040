/// A process exit status, with the BSD `sysexits.h` values the CLI uses.
package struct ExitCode: RawRepresentable, Sendable, Hashable {
    /// The numeric status.
    package let rawValue: Int32

    /// Creates an exit code from its numeric status.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Everything went as asked.
    package static let success = ExitCode(rawValue: 0)
    /// A runtime failure that retrying will not fix.
    package static let failure = ExitCode(rawValue: 1)
    /// The command line was wrong (EX_USAGE).
    package static let usage = ExitCode(rawValue: 64)
    /// The camera (or the simulator's address) cannot be reached or cannot shoot the plan now (EX_UNAVAILABLE).
    package static let unavailable = ExitCode(rawValue: 69)
    /// A bug in hdrshoot itself (EX_SOFTWARE).
    package static let internalError = ExitCode(rawValue: 70)
    /// The configuration file is malformed, or its editor failed (EX_CONFIG).
    package static let config = ExitCode(rawValue: 78)
    /// A transient failure: trying again later may work (EX_TEMPFAIL).
    package static let transientFailure = ExitCode(rawValue: 75)
}
