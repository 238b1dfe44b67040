import Dispatch
import Foundation
import Glibc
import Synchronization

/// A long-running child process (`hdrshoot simulate`, a `hdrshoot run` to be killed) started in the
/// background, whose standard output can be watched line by line while it runs.
///
/// Use `BackgroundProcess.with(...)`: it kills the child by its own PID (SIGKILL) when the body ends,
/// whether it returned or threw, and waits until it is reaped. Pipe reads run on dedicated dispatch threads;
/// waiting for a line or for the exit never blocks the cooperative pool. Unlike `ProcessRunner` it takes no
/// process slot, so a test can hold a simulator and still run short commands.
package final class BackgroundProcess: Sendable {
    /// Why a wait gave up.
    package enum Failure: Error, CustomStringConvertible {
        /// The child exited or timed out before printing a matching line; `output` is what it printed.
        case noMatchingLine(output: String, errorOutput: String)

        /// For test output.
        package var description: String {
            switch self {
            case let .noMatchingLine(output, errorOutput):
                "no matching line; stdout: \(output.suffix(2000)) stderr: \(errorOutput.suffix(2000))"
            }
        }
    }

    private struct State {
        var out = Data()
        var error = Data()
        var exitStatus: Int32?
        var outputClosed = false
        var errorClosed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The child's process id.
    package let pid: Int32
    private let state = Mutex(State())
    /// Where `type(_:)` writes, when the child was started with `typing: true`.
    private let input: FileHandle?

    private init(pid: Int32, input: FileHandle?) {
        self.pid = pid
        self.input = input
    }

    /// Starts `executable`, runs `body` with it, then kills the child (if still running) and waits for it.
    /// Standard input is empty, or with `typing` a pipe that `type(_:)` writes to while the child runs.
    package static func with<T>(
        _ executable: URL, arguments: [String], environment: [String: String]? = nil, typing: Bool = false,
        _ body: (BackgroundProcess) async throws -> T
    ) async throws -> T {
        let child = try start(executable, arguments: arguments, environment: environment, typing: typing)
        do {
            let result = try await body(child)
            await child.kill()
            return result
        } catch {
            await child.kill()
            throw error
        }
    }

    private static func start(
        _ executable: URL, arguments: [String], environment: [String: String]?, typing: Bool
    ) throws -> BackgroundProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ChildEnvironment.of(environment)
        let outPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errorPipe
        // A child that exits while the test types must not take the test process down with SIGPIPE.
        if typing { signal(SIGPIPE, SIG_IGN) }
        let inPipe = typing ? Pipe() : nil
        process.standardInput = inPipe ?? FileHandle.nullDevice
        let box = Box()
        process.terminationHandler = { finished in
            box.child?.exited(
                status: finished.terminationReason == .uncaughtSignal
                    ? 128 + finished.terminationStatus : finished.terminationStatus)
        }
        try process.run()
        // The parent's copies of the child's ends are closed at once; the read ends when the child closes them.
        try? outPipe.fileHandleForWriting.close()
        try? errorPipe.fileHandleForWriting.close()
        try? inPipe?.fileHandleForReading.close()
        let child = BackgroundProcess(pid: process.processIdentifier, input: inPipe?.fileHandleForWriting)
        box.child = child
        if !process.isRunning { child.exited(status: process.terminationStatus) }
        for (pipe, isError) in [(outPipe, false), (errorPipe, true)] {
            DispatchQueue(label: "hdrshoot.test.background-reader").async {
                let handle = pipe.fileHandleForReading
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    child.append(chunk, isError: isError)
                }
                try? handle.close()
                child.append(Data(), isError: isError, closed: true)
            }
        }
        return child
    }

    /// Everything printed on standard output so far.
    package var standardOutput: String { state.withLock { String(decoding: $0.out, as: UTF8.self) } }

    /// Everything printed on standard error so far.
    package var standardError: String { state.withLock { String(decoding: $0.error, as: UTF8.self) } }

    /// The exit status once the child ended (`128 + signal` when a signal ended it).
    package var exitStatus: Int32? { state.withLock { $0.exitStatus } }

    /// Whether both output pipes have reached their end.
    private var outputsClosed: Bool { state.withLock { $0.outputClosed && $0.errorClosed } }

    /// Waits until a complete standard-output line satisfies `matches`, and returns it; throws when the child
    /// ends first or `timeout` passes.
    package func waitForLine(
        timeout: Duration = .seconds(30), where matches: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (lines, ended) = state.withLock { state -> ([Substring], Bool) in
                let text = String(decoding: state.out, as: UTF8.self)
                return (
                    text.split(separator: "\n", omittingEmptySubsequences: true),
                    state.outputClosed || state.exitStatus != nil
                )
            }
            let complete = standardOutput.hasSuffix("\n") ? lines : lines.dropLast()
            if let line = complete.first(where: { matches(String($0)) }) { return String(line) }
            if ended || ContinuousClock.now >= deadline {
                throw Failure.noMatchingLine(output: standardOutput, errorOutput: standardError)
            }
            await waitForChange(until: deadline)
        }
    }

    /// Waits until the child exits (at most `timeout`, then kills it) and returns its status.
    ///
    /// Returns once the child has exited and both of its output pipes have reached their end (everything it wrote is
    /// in `standardOutput` and `standardError`), or, when a grandchild keeps a pipe open, at most 5 s after the exit.
    @discardableResult
    package func waitForExit(timeout: Duration = .seconds(60)) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = exitStatus {
                let drained = ContinuousClock.now + .seconds(5)
                while !outputsClosed, ContinuousClock.now < drained { await waitForChange(until: drained) }
                return status
            }
            if ContinuousClock.now >= deadline {
                await kill()
                return exitStatus ?? -1
            }
            await waitForChange(until: deadline)
        }
    }

    /// Sends `signal` to the child (by its PID) if it has not exited yet.
    package func send(_ signal: Int32) {
        state.withLock { state in
            // Once reaped the PID may belong to someone else: never signal it then.
            if state.exitStatus == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// Writes `text` to the child's standard input (started with `typing: true`); nothing once it has exited.
    package func type(_ text: String) {
        guard exitStatus == nil else { return }
        try? input?.write(contentsOf: Data(text.utf8))
    }

    /// Kills the child (SIGKILL, by PID) unless it has exited, and waits until it is reaped.
    package func kill() async {
        try? input?.close()
        send(SIGKILL)
        while exitStatus == nil { await waitForChange(until: ContinuousClock.now + .seconds(5)) }
    }

    // MARK: - Plumbing

    private func append(_ chunk: Data, isError: Bool, closed: Bool = false) {
        let waiters = state.withLock { state in
            if isError { state.error.append(chunk) } else { state.out.append(chunk) }
            if closed, isError { state.errorClosed = true }
            if closed, !isError { state.outputClosed = true }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func exited(status: Int32) {
        let waiters = state.withLock { state in
            state.exitStatus = status
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after the next output or exit, or after at most 100 ms (so deadlines are honoured).
    private func waitForChange(until _: ContinuousClock.Instant) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.withLock { $0.waiters.append(continuation) }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { self.wakeAll() }
        }
    }

    private func wakeAll() {
        let waiters = state.withLock { state in
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Lets the termination handler reach the object created after `run()`.
    private final class Box: @unchecked Sendable {
        // Set once right after launch, before any reader thread starts.
        var child: BackgroundProcess?
    }
}
