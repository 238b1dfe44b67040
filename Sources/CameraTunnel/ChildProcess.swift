import Foundation
import Posix
import Synchronization

/// The OpenSSH client programs the tunnel runs, found on `PATH` like any runtime helper (enfuse for merges).
package struct SSHTools: Sendable, Equatable {
    /// `ssh`.
    package var ssh: String
    /// `ssh-keyscan`.
    package var keyscan: String
    /// `ssh-keygen`.
    package var keygen: String

    /// The programs on `environment`'s `PATH` (else `/usr/bin:/bin`); throws naming the first one missing.
    package static func find(environment: [String: String]) throws(SSHTunnelError) -> SSHTools {
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func locate(_ name: String) throws(SSHTunnelError) -> String {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
            throw .toolMissing(name)
        }
        return SSHTools(ssh: try locate("ssh"), keyscan: try locate("ssh-keyscan"), keygen: try locate("ssh-keygen"))
    }
}

/// A child process of the tunnel (`ssh`, `ssh-keyscan`, `ssh-keygen`): its standard error is gathered on a
/// thread of its own, its exit awaited without blocking the cooperative pool, and it is ended by its own PID
/// only.
package final class ChildProcess: Sendable {
    private struct State {
        var errorOutput = ""
        var output = ""
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    /// The child's process id.
    package let pid: Int32
    private let state = Mutex(State())
    /// The write end of the child's standard input, held open for its life (`holdingInput`); closing it is how
    /// the child learns to end, and the kernel closes it when this process dies, however it dies.
    private let heldInput: Mutex<FileHandle?>

    private init(pid: Int32, heldInput: FileHandle?) {
        self.pid = pid
        self.heldInput = Mutex(heldInput)
    }

    /// Starts `executable` with `arguments` and exactly `environment`; standard input is `/dev/null`, `input`,
    /// or with `holdingInput` a pipe this process keeps open until `terminate()` (or its own death).
    package static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil,
        holdingInput: Bool = false
    ) throws(SSHTunnelError) -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errorPipe
        let inPipe = input != nil || holdingInput ? Pipe() : nil
        process.standardInput = inPipe ?? FileHandle.nullDevice
        let box = Mutex<ChildProcess?>(nil)
        process.terminationHandler = { finished in
            let status = finished.terminationReason == .exit ? finished.terminationStatus : -1
            box.withLock { $0 }?.exited(status)
        }
        do {
            try process.run()
        } catch {
            throw .toolMissing((executable as NSString).lastPathComponent)
        }
        let child = ChildProcess(
            pid: process.processIdentifier, heldInput: holdingInput ? inPipe?.fileHandleForWriting : nil)
        if holdingInput { try? inPipe?.fileHandleForReading.close() }
        let alreadyExited = box.withLock { slot -> Bool in
            slot = child
            return !process.isRunning
        }
        if alreadyExited { child.exited(process.terminationStatus) }
        child.gather(outPipe.fileHandleForReading, into: \.output)
        child.gather(errorPipe.fileHandleForReading, into: \.errorOutput)
        if let inPipe, let input {
            let handle = inPipe.fileHandleForWriting
            try? handle.write(contentsOf: Data(input.utf8))
            try? handle.close()
        }
        return child
    }

    /// Runs `executable` to its end and returns its status and what it printed.
    package static func run(
        _ executable: String, _ arguments: [String], input: String? = nil
    ) async throws(SSHTunnelError) -> (status: Int32, output: String, errorOutput: String) {
        let child = try start(executable, arguments, input: input)
        let status = await child.exitStatus()
        // The pipes close after the exit; the gathering threads finish soon after.
        await child.drained()
        return (status, child.output, child.errorOutput)
    }

    /// What the child wrote to standard output so far.
    package var output: String { state.withLock { $0.output } }
    /// What the child wrote to standard error so far.
    package var errorOutput: String { state.withLock { $0.errorOutput } }
    /// The exit status, or nil while it runs (-1 when a signal ended it).
    package var status: Int32? { state.withLock { $0.status } }

    /// Waits for the child's end; returns its status (-1 when a signal ended it). Cancelling the caller does not
    /// stop the wait: call `terminate()` first.
    package func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            let done: Int32? = state.withLock { state in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Ends the child (its held input closed, then SIGTERM, then SIGKILL after `grace`) and waits until it is
    /// reaped; its PID only.
    package func terminate(grace: Duration = .seconds(2)) async {
        heldInput.withLock { handle in
            try? handle?.close()
            handle = nil
        }
        var deadline = ContinuousClock.now + grace
        while status == nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard status == nil else { return }
        Signal.terminate.send(to: pid)
        deadline = ContinuousClock.now + grace
        while status == nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if status == nil { Signal.kill.send(to: pid) }
        _ = await exitStatus()
    }

    private func exited(_ status: Int32) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int32, Never>] in
            guard state.status == nil else { return [] }
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    private let pending = Mutex(2)

    private func drained() async {
        while pending.withLock({ $0 }) > 0 { try? await Task.sleep(for: .milliseconds(5)) }
    }

    private func gather(_ handle: FileHandle, into field: WritableKeyPath<State, String> & Sendable) {
        let thread = Thread { [self] in
            while let data = try? handle.read(upToCount: 4096), !data.isEmpty {
                let text = String(decoding: data, as: UTF8.self)
                state.withLock { $0[keyPath: field] += text }
            }
            try? handle.close()
            pending.withLock { $0 -= 1 }
        }
        thread.name = "hdrshoot.ssh-output"
        thread.start()
    }
}
