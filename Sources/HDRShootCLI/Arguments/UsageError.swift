/// A wrong command line: printed as one `error:` line plus a hint to `--help`, exit status 64.
package struct UsageError: Error, Sendable, Hashable {
    /// What is wrong, in one line (`unknown option '--shdow' (did you mean '--shadow'?)`).
    package let message: String
    /// The command whose help the hint points to; `nil` points to the tool's help.
    package let command: String?

    /// Creates a usage error about `command` (or the tool as a whole).
    package init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The hint line printed after the message.
    package var hint: String {
        let invocation = command.map { "\(HDRShoot.toolName) \($0) --help" } ?? "\(HDRShoot.toolName) --help"
        return "Run '\(invocation)' for usage."
    }

    /// Never transient: the same command line fails the same way.
    package var isTransient: Bool { false }
}
