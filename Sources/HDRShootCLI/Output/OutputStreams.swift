import Foundation
import Synchronization

/// Where the CLI writes: standard output for results, standard error for diagnostics.
///
/// Commands never call `print`; they write here, so tests can run the CLI in-process and capture both.
package protocol OutputStreams: Sendable {
    /// Writes `text` (newlines included by the caller) to standard output.
    func writeOut(_ text: String)
    /// Writes `text` (newlines included by the caller) to standard error.
    func writeError(_ text: String)
}

/// The process's real standard output and standard error, unbuffered.
package struct StandardStreams: OutputStreams {
    /// Creates the writer for the process's own streams.
    package init() {}

    package func writeOut(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    package func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Collects everything written, for running the CLI in-process in tests and benchmarks.
package final class CapturedOutput: OutputStreams {
    private let buffers = Mutex<(out: String, error: String)>(("", ""))

    /// Creates an empty capture.
    package init() {}

    package func writeOut(_ text: String) {
        buffers.withLock { $0.out += text }
    }

    package func writeError(_ text: String) {
        buffers.withLock { $0.error += text }
    }

    /// Everything written to standard output so far.
    package var standardOutput: String { buffers.withLock { $0.out } }

    /// Everything written to standard error so far.
    package var standardError: String { buffers.withLock { $0.error } }
}
