import Glibc
import Synchronization

/// A non-blocking TCP socket whose waits park on the `IOEventLoop` instead of a pool thread.
///
/// Every call borrows the descriptor for its duration; `close()` marks the socket closing, wakes every
/// waiter at once and shuts the connection down, and the descriptor itself is released by whichever
/// call finishes last, so a number is never closed under a running call nor reused by one.
package final class Socket: Sendable {
    private struct State {
        var fd: Int32
        var closing = false
        /// Whether `close()` has told the loop (`beginClosing`); the number is released only after that.
        var loopTold = false
        var borrowers = 0
    }

    private let state: Mutex<State>
    private let loop: IOEventLoop

    /// Adopts `fd`, making it non-blocking and close-on-exec.
    package init(adopting fd: Int32, loop: IOEventLoop = .shared) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.state = Mutex(State(fd: fd))
        self.loop = loop
    }

    /// Opens a non-blocking TCP socket of `family` (`AF_INET` or `AF_INET6`).
    package convenience init(family: Int32) throws(SocketFailure) {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try systemCall("socket") { Glibc.socket(family, type, Int32(IPPROTO_TCP)) }
        self.init(adopting: fd)
    }

    deinit {
        let fd = state.withLock { $0.fd }
        if fd >= 0 {
            loop.forget(fd: fd)
            _ = Glibc.close(fd)
        }
    }

    // MARK: - Descriptor lifetime

    private func borrow() throws(SocketFailure) -> Int32 {
        let fd: Int32? = state.withLock { state in
            guard !state.closing, state.fd >= 0 else { return nil }
            state.borrowers += 1
            return state.fd
        }
        guard let fd else { throw .closed }
        return fd
    }

    private func giveBack() {
        let fdToClose: Int32? = state.withLock { state in
            state.borrowers -= 1
            guard state.closing, state.loopTold, state.borrowers == 0, state.fd >= 0 else { return nil }
            defer { state.fd = -1 }
            return state.fd
        }
        if let fdToClose { release(fdToClose) }
    }

    private func release(_ fd: Int32) {
        loop.forget(fd: fd)
        _ = Glibc.close(fd)
    }

    /// Runs `body` with the descriptor, failing with `.closed` once `close()` has begun.
    package func withDescriptor<Result>(
        _ body: (Int32) throws(SocketFailure) -> Result
    ) throws(SocketFailure) -> Result {
        let fd = try borrow()
        defer { giveBack() }
        return try body(fd)
    }

    /// Closes the socket without waiting: pending and future calls fail with `.closed`.
    ///
    /// Idempotent. The connection is shut down at once so the peer sees EOF even while a call still
    /// holds the descriptor; the number is released when that call returns.
    ///
    /// The loop is told before the number can be released: a call that returned between the two (woken by the
    /// peer's EOF, say) used to close the descriptor first, and the loop's closing mark then outlived it, so the
    /// next socket given that number failed its first wait with `.closed` (a reconnect's connect "cancelled"
    /// under load). The shutdown holds the descriptor too, so it never reaches a number already reused.
    package func close() {
        let fd: Int32 = state.withLock { state in
            guard !state.closing, state.fd >= 0 else { return -1 }
            state.closing = true
            return state.fd
        }
        guard fd >= 0 else { return }
        loop.beginClosing(fd: fd)
        let releaseNow: Bool = state.withLock { state in
            state.loopTold = true
            if state.borrowers == 0 {
                state.fd = -1
                return true
            }
            // Held for the shutdown below; whichever call gives it back last releases it.
            state.borrowers += 1
            return false
        }
        if releaseNow {
            release(fd)
        } else {
            _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
            giveBack()
        }
    }

    /// Whether `close()` has been called.
    package var isClosed: Bool { state.withLock { $0.closing } }

    // MARK: - Options and addresses

    /// Sets an integer socket option.
    package func setOption(level: Int32, name: Int32, value: Int32, call: String) throws(SocketFailure) {
        try withDescriptor { fd throws(SocketFailure) in
            var value = value
            _ = try systemCall(call) { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
        }
    }

    /// Turns off Nagle's algorithm (`TCP_NODELAY`), so a small request leaves at once rather than waiting for
    /// the acknowledgement of the last one: PTP/IP and HTTP requests are small and wait for their answers.
    package func setNoDelay() throws(SocketFailure) {
        try setOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, call: "setsockopt(TCP_NODELAY)")
    }

    /// The address the socket is bound to (after `bind` with port 0, the port the kernel chose).
    package func localAddress() throws(SocketFailure) -> SocketAddress? {
        try withDescriptor { fd throws(SocketFailure) in
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    retryingInterrupts { getsockname(fd, pointer, &length) }.map { _ in SocketAddress(pointer) }
                }
            }
            switch result {
            case let .success(address): return address
            case let .failure(error): throw .system(error, call: "getsockname")
            }
        }
    }

    // MARK: - Waiting

    /// Waits on the loop for `interest`, holding the descriptor so it cannot be closed underneath.
    package func wait(for interest: IOInterest) async throws(SocketFailure) {
        let fd = try borrow()
        defer { giveBack() }
        try await loop.wait(fd: fd, for: interest)
    }
}
