import Foundation
import Glibc
import Synchronization

/// Why a socket-level wait or call did not complete; the transport turns it into a `PTPIPError` with context.
package enum SocketFailure: Error, Sendable, Equatable {
    /// A system call failed with `errno`.
    case system(Errno, call: String)
    /// The deadline passed before the descriptor became ready.
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

/// Monotonic nanoseconds (CLOCK_MONOTONIC), the time base of every kernel wait in the transport.
package enum MonotonicTime {
    /// "No deadline".
    package static let never = UInt64.max

    /// Now, in nanoseconds since an arbitrary point.
    package static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// The instant `timeout` from now, or `never` for nil; negative timeouts mean "already passed".
    package static func deadline(after timeout: Duration?) -> UInt64 {
        guard let timeout else { return never }
        let (seconds, attoseconds) = timeout.components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return now() }
        let nanos = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if nanos.overflow { return never }
        let total = nanos.partialValue.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        let result = total.partialValue.addingReportingOverflow(now())
        return total.overflow || result.overflow ? never : result.partialValue
    }
}

/// One thread that waits for descriptor readiness with `poll(2)` and resumes the waiting tasks.
///
/// The cooperative pool has very few threads, so no task may sit in a blocking call: sockets are
/// non-blocking, a task that gets `EAGAIN` parks here, and this thread wakes it. A pipe in every poll set
/// lets registration, cancellation and `close` interrupt a running `poll` at once, so nothing here can
/// hang on a silent peer beyond the caller's deadline. (`epoll` is not exported by the Glibc module,
/// and the handful of descriptors a camera session uses makes `poll` just as fast.)
package final class IOEventLoop: Sendable {
    /// The process-wide loop; its thread starts on first use and lives as long as the process.
    package static let shared = IOEventLoop()

    private struct Waiter: Sendable {
        let fd: Int32
        let interest: IOInterest
        let deadline: UInt64
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
    }

    private let state = Mutex(State())
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

    /// Suspends until `fd` is ready for `interest`, the deadline passes, the task is cancelled or the
    /// descriptor is closed. A negative `fd` waits for the deadline only (a cancellable timer).
    package func wait(fd: Int32, for interest: IOInterest, deadline: UInt64) async throws(SocketFailure) {
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        do {
            try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                    enum Outcome { case registered(wake: Bool), failed(SocketFailure) }
                    let outcome: Outcome = state.withLock { state in
                        // Checked under the lock so a cancellation racing with registration is never lost:
                        // either the handler below finds the waiter, or this check sees the flag.
                        if Task.isCancelled { return .failed(.cancelled) }
                        if fd >= 0, state.closing.contains(fd) { return .failed(.closed) }
                        if deadline <= MonotonicTime.now() { return .failed(.timedOut) }
                        state.waiters[id] = Waiter(fd: fd, interest: interest, deadline: deadline, continuation: continuation)
                        let wake = state.polling && !state.wakePending
                        if wake { state.wakePending = true }
                        return .registered(wake: wake)
                    }
                    switch outcome {
                    case let .failed(failure): continuation.resume(throwing: failure)
                    case let .registered(wake): if wake { signal() }
                    }
                }
            } onCancel: {
                let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
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
        let woken: [Waiter] = state.withLock { state in
            state.closing.insert(fd)
            let matching = state.waiters.filter { $0.value.fd == fd }
            for id in matching.keys { state.waiters.removeValue(forKey: id) }
            return Array(matching.values)
        }
        for waiter in woken { waiter.continuation.resume(throwing: SocketFailure.closed) }
    }

    /// Drops the closing mark of `fd`; call right before `close(2)` so a reused number starts clean.
    func forget(fd: Int32) {
        _ = state.withLock { $0.closing.remove(fd) }
    }

    private func signal() {
        var byte: UInt8 = 1
        _ = retryingInterrupts { Glibc.write(wakeWrite, &byte, 1) }
    }

    private func run() {
        var pollSet: [pollfd] = []
        var ids: [UInt64] = []
        var ready: [(UnsafeContinuation<Void, any Error>, SocketFailure?)] = []
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            let timeout: Int32 = state.withLock { state in
                pollSet.removeAll(keepingCapacity: true)
                ids.removeAll(keepingCapacity: true)
                pollSet.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
                var earliest = MonotonicTime.never
                for (id, waiter) in state.waiters {
                    let events = waiter.interest == .readable ? POLLIN : POLLOUT
                    pollSet.append(pollfd(fd: waiter.fd, events: Int16(events), revents: 0))
                    ids.append(id)
                    earliest = min(earliest, waiter.deadline)
                }
                state.polling = true
                if earliest == MonotonicTime.never { return -1 }
                let now = MonotonicTime.now()
                if earliest <= now { return 0 }
                // Round up so a wake-up never comes before the deadline.
                return Int32(clamping: (earliest - now + 999_999) / 1_000_000)
            }
            _ = poll(&pollSet, nfds_t(pollSet.count), timeout)
            state.withLock { state in
                state.polling = false
                if pollSet[0].revents != 0 {
                    while drain.withUnsafeMutableBytes({ Glibc.read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
                    state.wakePending = false
                }
                for index in 1..<pollSet.count where pollSet[index].revents != 0 {
                    if let waiter = state.waiters.removeValue(forKey: ids[index - 1]) {
                        ready.append((waiter.continuation, nil))
                    }
                }
                let now = MonotonicTime.now()
                for (id, waiter) in state.waiters where waiter.deadline <= now {
                    state.waiters.removeValue(forKey: id)
                    ready.append((waiter.continuation, .timedOut))
                }
            }
            for (continuation, failure) in ready {
                if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
            }
            ready.removeAll(keepingCapacity: true)
        }
    }
}
