import Foundation
import Glibc
import Synchronization

/// Why a socket-level wait or call did not complete; the transport turns it into a `PTPIPError` with context.
package enum SocketFailure: Error, Sendable, Equatable {
    /// A system call failed with `errno`.
    case system(Errno, call: String)
    /// The caller's timeout passed before the call completed (see `withTimeout`).
    case timedOut
    /// The socket was closed by our side while the call waited (or before it started).
    case closed
    /// The waiting task was cancelled.
    case cancelled
}

/// Readiness a waiter asks for.
package enum IOInterest: Sendable {
    /// Bytes (or EOF, or an error) can be read.
    case readable
    /// Bytes can be written (or a non-blocking connect has finished).
    case writable
}

/// One thread that waits for descriptor readiness with `poll(2)` and resumes the waiting tasks.
///
/// The cooperative pool has very few threads, so no task may sit in a blocking call: sockets are
/// non-blocking, a task that gets `EAGAIN` parks here, and this thread wakes it. A pipe in every poll set
/// lets registration, cancellation and `close` interrupt a running `poll` at once. Waits have no deadline
/// of their own: a caller bounds one in time with `withTimeout`, whose timeout cancels the wait, so every
/// timeout runs on the caller's injected clock. (`epoll` is not exported by the Glibc module, and the
/// handful of descriptors a camera session uses makes `poll` just as fast.)
package final class IOEventLoop: Sendable {
    /// The process-wide loop; its thread starts on first use and lives as long as the process.
    package static let shared = IOEventLoop()

    private struct Waiter: Sendable {
        let fd: Int32
        let interest: IOInterest
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct State: ~Copyable {
        var nextID: UInt64 = 1
        var waiters: [UInt64: Waiter] = [:]
        /// Descriptors being closed: new waits on them fail at once with `.closed`.
        var closing: Set<Int32> = []
        /// Whether the loop thread is inside `poll` with a set built before the latest change.
        var polling = false
        /// Whether a wake byte is already in the pipe (one is enough).
        var wakePending = false
        /// Waiters the loop thread took as ready and has not resumed yet.
        var resuming = 0
    }

    private let state = Mutex(State())
    /// The loop thread's CPU-time clock, once the thread runs.
    private let cpuClock = Mutex<clockid_t?>(nil)
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { fatalError("hdrshoot: cannot create the I/O wake pipe: \(Errno.current)") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        let thread = Thread { [self] in self.run() }
        thread.name = "hdrshoot-io"
        thread.start()
    }

    /// Suspends until `fd` is ready for `interest`, the task is cancelled or the descriptor is closed.
    package func wait(fd: Int32, for interest: IOInterest) async throws(SocketFailure) {
        precondition(fd >= 0, "waiting on a descriptor that is not open")
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        do {
            try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                    enum Outcome {
                        case registered(wake: Bool)
                        case failed(SocketFailure)
                    }
                    let outcome: Outcome = state.withLock { state in
                        // Checked under the lock so a cancellation racing with registration is never lost:
                        // either the handler below finds the waiter, or this check sees the flag.
                        if Task.isCancelled { return .failed(.cancelled) }
                        if state.closing.contains(fd) { return .failed(.closed) }
                        state.waiters[id] = Waiter(fd: fd, interest: interest, continuation: continuation)
                        return .registered(wake: Self.needsWake(&state))
                    }
                    switch outcome {
                    case let .failed(failure): continuation.resume(throwing: failure)
                    case let .registered(wake): if wake { signal() }
                    }
                }
            } onCancel: {
                // A cancelled wait (a timeout, usually) leaves the running poll too: a poll pins the files it
                // sleeps on, so a stale entry would keep a socket closed after it alive.
                let (waiter, wake) = state.withLock { state in
                    let waiter = state.waiters.removeValue(forKey: id)
                    return (waiter, waiter != nil && Self.needsWake(&state))
                }
                if wake { signal() }
                waiter?.continuation.resume(throwing: SocketFailure.cancelled)
            }
        } catch let failure as SocketFailure {
            throw failure
        } catch {
            throw .cancelled
        }
    }

    /// Fails every wait on `fd` with `.closed` and refuses new ones until `forget(_:)`.
    func beginClosing(fd: Int32) {
        let (woken, wake): ([Waiter], Bool) = state.withLock { state in
            state.closing.insert(fd)
            let matching = state.waiters.filter { $0.value.fd == fd }
            for id in matching.keys { state.waiters.removeValue(forKey: id) }
            return (Array(matching.values), !matching.isEmpty && Self.needsWake(&state))
        }
        if wake { signal() }
        for waiter in woken { waiter.continuation.resume(throwing: SocketFailure.closed) }
    }

    /// Drops the closing mark of `fd`; call right before `close(2)` so a reused number starts clean.
    func forget(fd: Int32) {
        _ = state.withLock { $0.closing.remove(fd) }
    }

    /// Whether the loop thread must be woken to rebuild its poll set after a change of the waiters (it is in
    /// `poll` with the old set and no wake byte is pending yet); marks the byte as pending when so.
    private static func needsWake(_ state: inout State) -> Bool {
        let wake = state.polling && !state.wakePending
        if wake { state.wakePending = true }
        return wake
    }

    private func signal() {
        var byte: UInt8 = 1
        _ = retryingInterrupts { Glibc.write(wakeWrite, &byte, 1) }
    }

    /// Whether a wake-up is on its way: a waiting descriptor is ready now (bytes, EOF or a finished connect
    /// arrived and the loop thread has not taken it yet), or the loop thread is resuming waiters.
    ///
    /// For deterministic tests, which move virtual time only when nothing is on its way (see
    /// Tests/TestSupport/QuiescentExecutor.swift). Process-wide: another test's ready socket makes it true for
    /// the moment that loop thread needs to take it, which only makes such a test look again.
    package var hasWakeupsInFlight: Bool {
        let waiting = state.withLock { state -> [pollfd]? in
            if state.resuming > 0 { return nil }
            return state.waiters.values.map {
                pollfd(fd: $0.fd, events: Int16($0.interest == .readable ? POLLIN : POLLOUT), revents: 0)
            }
        }
        guard var waiting else { return true }
        if waiting.isEmpty { return false }
        let ready = (try? retryingInterrupts { poll(&waiting, nfds_t(waiting.count), 0) }.get()) ?? 0
        return ready > 0
    }

    /// The CPU time the loop thread has used so far (zero before it first ran): what waiting on the loop
    /// costs, for benchmarks and for tests that check an idle waiter really sleeps.
    package var threadCPUTime: Duration {
        guard let clock = cpuClock.withLock({ $0 }) else { return .zero }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return .zero }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    private func run() {
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) == 0 { cpuClock.withLock { $0 = clock } }
        var pollSet: [pollfd] = []
        var ids: [UInt64] = []
        var ready: [UnsafeContinuation<Void, any Error>] = []
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            state.withLock { state in
                pollSet.removeAll(keepingCapacity: true)
                ids.removeAll(keepingCapacity: true)
                pollSet.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
                for (id, waiter) in state.waiters {
                    let events = waiter.interest == .readable ? POLLIN : POLLOUT
                    pollSet.append(pollfd(fd: waiter.fd, events: Int16(events), revents: 0))
                    ids.append(id)
                }
                state.polling = true
            }
            // No timeout: every change of the waiters (a new one, a cancelled one, a close) wakes it through the pipe.
            _ = poll(&pollSet, nfds_t(pollSet.count), -1)
            state.withLock { state in
                state.polling = false
                if pollSet[0].revents != 0 {
                    while drain.withUnsafeMutableBytes({ Glibc.read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
                    state.wakePending = false
                }
                for index in 1..<pollSet.count where pollSet[index].revents != 0 {
                    if let waiter = state.waiters.removeValue(forKey: ids[index - 1]) {
                        ready.append(waiter.continuation)
                    }
                }
                state.resuming = ready.count
            }
            for continuation in ready { continuation.resume() }
            if !ready.isEmpty { state.withLock { $0.resuming = 0 } }
            ready.removeAll(keepingCapacity: true)
        }
    }
}
