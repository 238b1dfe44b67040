import Dispatch
import Foundation
import Glibc
import Synchronization

/// What a finished child process left behind.
package struct ProcessResult: Sendable, Hashable {
    /// The exit status, or `128 + signal` when a signal ended it (as a shell reports it).
    package let exitCode: Int32
    /// Everything the process wrote to standard output, as UTF-8.
    package let standardOutput: String
    /// Everything the process wrote to standard error, as UTF-8.
    package let standardError: String
    /// Whether the runner killed the process because it outlived its timeout.
    package let timedOut: Bool
    /// How long the process ran, from its launch until it was reaped (not counting the wait for a free
    /// process slot before it, which on a busy host can be longer than the run itself).
    package let runTime: Duration

    /// Standard error split into lines, without the trailing empty line.
    package var errorLines: [Substring] {
        standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }
}

/// Runs executables as child processes and captures their output, with a timeout.
///
/// Blocking work (pipe reads, waiting) happens on dedicated dispatch threads and is bridged to `async`
/// with a continuation, so callers never block the cooperative pool. A process that outlives `timeout`
/// is killed (by its own PID, SIGKILL) and reported with `timedOut`.
package enum ProcessRunner {
    /// Why a process could not be run at all.
    package enum Failure: Error, CustomStringConvertible {
        /// The executable does not exist; `hint` says how to build it.
        case missingExecutable(path: String, hint: String)
        /// `Process.run()` failed.
        case launchFailed(path: String, reason: String)

        /// The failure in one line, for test output.
        package var description: String {
            switch self {
            case .missingExecutable(let path, let hint): "no executable at \(path); \(hint)"
            case .launchFailed(let path, let reason): "could not launch \(path): \(reason)"
            }
        }
    }

    /// Runs `executable` with `arguments`, feeding `standardInput` (then EOF), and waits up to `timeout`.
    package static func run(
        _ executable: URL,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        standardInput: [UInt8] = [],
        timeout: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure.missingExecutable(path: executable.path, hint: "is it built?")
        }
        // Suites run in parallel on 2 cores: dozens of child processes starting at once would starve the
        // loopback tests' I/O of CPU for seconds. Run a few at a time.
        await ProcessSlots.shared.acquire()
        defer { ProcessSlots.shared.release() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ChildEnvironment.of(environment)
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let outPipe = Pipe()
        let errorPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errorPipe
        process.standardInput = inPipe

        let state = Mutex(Collected())
        let group = DispatchGroup()
        group.enter()
        process.terminationHandler = { _ in
            state.withLock { $0.exitedAt = ContinuousClock.now }
            group.leave()
        }
        let launchedAt = ContinuousClock.now
        do {
            try process.run()
        } catch {
            throw Failure.launchFailed(path: executable.path, reason: "\(error)")
        }
        let pid = process.processIdentifier
        // The child has its own copies: the parent's ends it does not use are closed at once, and the ends it
        // reads are closed when read (a long suite otherwise runs past 1024 descriptors, where Foundation's
        // select(2)-based process monitor stops working).
        try? outPipe.fileHandleForWriting.close()
        try? errorPipe.fileHandleForWriting.close()
        try? inPipe.fileHandleForReading.close()

        // Readers run on their own threads: a full pipe would otherwise stall the child.
        for (pipe, isError) in [(outPipe, false), (errorPipe, true)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                try? pipe.fileHandleForReading.close()
                state.withLock { state in
                    if isError { state.error = data } else { state.out = data }
                }
                group.leave()
            }
        }
        DispatchQueue.global().async {
            if !standardInput.isEmpty { inPipe.fileHandleForWriting.write(Data(standardInput)) }
            try? inPipe.fileHandleForWriting.close()
        }
        let deadline =
            DispatchTime.now()
            + .nanoseconds(
                Int(timeout.components.seconds) * 1_000_000_000
                    + Int(timeout.components.attoseconds / 1_000_000_000))
        DispatchQueue.global().asyncAfter(deadline: deadline) {
            let killed = state.withLock { collected -> Bool in
                // Once the child has been reaped its PID may belong to someone else: never signal it then.
                guard collected.exitedAt == nil else { return false }
                collected.timedOut = true
                return true
            }
            if killed { kill(pid, SIGKILL) }
        }

        return await withCheckedContinuation { continuation in
            group.notify(queue: .global()) {
                let collected = state.withLock { $0 }
                let status = process.terminationStatus
                let code = process.terminationReason == .uncaughtSignal ? 128 + status : status
                continuation.resume(
                    returning: ProcessResult(
                        exitCode: code,
                        standardOutput: String(decoding: collected.out, as: UTF8.self),
                        standardError: String(decoding: collected.error, as: UTF8.self),
                        timedOut: collected.timedOut,
                        runTime: (collected.exitedAt ?? ContinuousClock.now) - launchedAt
                    ))
            }
        }
    }

    /// The built `hdrshoot` executable: `$HDRSHOOT_BINARY`, else beside the running test bundle, else
    /// `.build/debug/hdrshoot` under the package root. Throws a clear message when none exists.
    package static func hdrshootBinary() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let override = environment["HDRSHOOT_BINARY"] { candidates.append(URL(fileURLWithPath: override)) }
        // `swift test` builds every product into the folder holding the test bundle.
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent("hdrshoot"))
        candidates.append(Fixtures.packageRoot.appendingPathComponent(".build/debug/hdrshoot"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw Failure.missingExecutable(
            path: candidates.map(\.path).joined(separator: " or "),
            hint: "build it with 'swift build' (swift test builds it too) or set HDRSHOOT_BINARY"
        )
    }

    /// Runs the built `hdrshoot` with `arguments`.
    package static func runHDRShoot(
        _ arguments: [String], timeout: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        try await run(try hdrshootBinary(), arguments: arguments, timeout: timeout)
    }

    /// What the reader threads and the timeout share.
    private struct Collected: Sendable {
        var out = Data()
        var error = Data()
        /// When the child was reaped (nil while it runs).
        var exitedAt: ContinuousClock.Instant?
        var timedOut = false
    }
}

/// A counting semaphore for child processes started by tests (async acquire, FIFO).
package final class ProcessSlots: Sendable {
    /// The slots shared by every test in the process.
    package static let shared = ProcessSlots(count: 2)

    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    /// Creates a semaphore with `count` slots.
    package init(count: Int) { state = Mutex(State(free: count)) }

    /// Waits for a free slot.
    package func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Frees a slot, handing it to the oldest waiter if any.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

/// The environment a test's child process gets: `environment` (or this process's), with the state the commands
/// keep by default (session logs, journals without `--state-dir`) in a folder of the test run's own
/// (`$XDG_STATE_HOME` under the temporary folder) unless the test chose its own `XDG_STATE_HOME` or `HOME`, so
/// no test writes into the real home folder.
package enum ChildEnvironment {
    /// The state folder the tests' children log into, unless a test sets `XDG_STATE_HOME`.
    package static let stateHome = TemporaryFolder.scratch
        .appendingPathComponent("hdrshoot-tests-state-\(ProcessInfo.processInfo.processIdentifier)").path

    /// `environment` with `XDG_STATE_HOME` pointed at `stateHome` where the test left it and `HOME` as inherited.
    package static func of(_ environment: [String: String]?) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var result = environment ?? inherited
        if result["XDG_STATE_HOME"] == inherited["XDG_STATE_HOME"], result["HOME"] == inherited["HOME"] {
            result["XDG_STATE_HOME"] = stateHome
        }
        // The children's own temporary files go to the scratch folder too, unless the test chose a TMPDIR.
        if result["TMPDIR"] == inherited["TMPDIR"] { result["TMPDIR"] = TemporaryFolder.scratch.path }
        return result
    }
}
