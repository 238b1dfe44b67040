import Foundation
import Posix
import Synchronization

/// Where the CLI writes: standard output for results, standard error for diagnostics.
///
/// Commands never call `print`; they write here, so tests can run the CLI in-process and capture both.
package protocol OutputStreams: Sendable {
    /// Writes `text` (newlines included by the caller) to standard output.
    func writeOut(_ text: String)
    /// Writes `text` (newlines included by the caller) to standard error.
    func writeError(_ text: String)
    /// Whether the text ends up on the process's own standard streams (which may be a terminal), through any
    /// wrappers; in-process runs (tests, benchmarks) never are.
    var reachesProcessStreams: Bool { get }
}

extension OutputStreams {
    /// Most streams are captures.
    package var reachesProcessStreams: Bool { false }
}

/// The process's real standard output and standard error, unbuffered.
///
/// A stream that is a terminal goes silent once `TerminalDetachment` let the terminal go (SIGHUP); a failed
/// write (a closed pipe, a terminal that hung up) is dropped rather than ending the process.
package struct StandardStreams: OutputStreams {
    /// Creates the writer for the process's own streams.
    package init() {}

    /// These are the process's own streams.
    package var reachesProcessStreams: Bool { true }

    /// Writes to the stream at once (no buffering to interleave wrongly with standard error).
    package func writeOut(_ text: String) {
        guard !TerminalDetachment.isMuted(.standardOutput) else { return }
        try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }

    /// Writes to standard error at once.
    package func writeError(_ text: String) {
        guard !TerminalDetachment.isMuted(.standardError) else { return }
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }
}

/// Collects everything written, for running the CLI in-process in tests and benchmarks.
package final class CapturedOutput: OutputStreams {
    private let buffers = Mutex<(out: String, error: String)>(("", ""))

    /// Creates an empty capture.
    package init() {}

    /// Appends to the captured standard output.
    package func writeOut(_ text: String) {
        buffers.withLock { $0.out += text }
    }

    /// Appends to the captured standard error.
    package func writeError(_ text: String) {
        buffers.withLock { $0.error += text }
    }

    /// Everything written to standard output so far.
    package var standardOutput: String { buffers.withLock { $0.out } }

    /// Everything written to standard error so far.
    package var standardError: String { buffers.withLock { $0.error } }
}

/// The outcome of one in-process CLI run: what a shell would see, without a process.
package struct CapturedRun: Sendable, Hashable {
    /// The exit status `main` would have exited with.
    package let exitCode: Int32
    /// Everything written to standard output.
    package let standardOutput: String
    /// Everything written to standard error.
    package let standardError: String

    /// Standard error split into lines, without the trailing empty line.
    package var errorLines: [Substring] {
        standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }
}

extension HDRShoot {
    /// Runs `hdrshoot <arguments>` in-process and captures both streams (for tests of any command).
    package static func runCapturing(_ arguments: [String]) async -> CapturedRun {
        let output = CapturedOutput()
        let code = await run(arguments, output: output)
        return CapturedRun(exitCode: code, standardOutput: output.standardOutput, standardError: output.standardError)
    }
}
