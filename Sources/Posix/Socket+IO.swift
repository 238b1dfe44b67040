import Glibc

// Non-blocking calls return nil for "would block"; the async callers then park on the event loop.
extension Socket {
    /// Starts a non-blocking connect and waits until it completes or fails (or the task is cancelled).
    package func connect(to address: SocketAddress) async throws(SocketFailure) {
        let started: Errno? = try withDescriptor { fd throws(SocketFailure) in
            let status = address.withSockAddr { Glibc.connect(fd, $0, $1) }
            return status == 0 ? nil : Errno.current
        }
        if let started {
            // EINTR after connect(2) means the attempt goes on in the background, like EINPROGRESS.
            guard started == .inProgress || started == .interrupted else { throw .system(started, call: "connect") }
            try await wait(for: .writable)
            let pending = try pendingError()
            if pending != 0 { throw .system(Errno(rawValue: pending), call: "connect") }
        }
    }

    /// The socket's pending error (`SO_ERROR`), which holds the outcome of a non-blocking connect.
    private func pendingError() throws(SocketFailure) -> Int32 {
        try withDescriptor { fd throws(SocketFailure) in
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = try systemCall("getsockopt(SO_ERROR)") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) }
            return value
        }
    }

    /// Reads up to `buffer.count` bytes; 0 means EOF, nil means nothing is there yet.
    package func tryRead(into buffer: UnsafeMutableRawBufferPointer) throws(SocketFailure) -> Int? {
        try withDescriptor { fd throws(SocketFailure) in
            switch retryingInterrupts({ Glibc.read(fd, buffer.baseAddress, buffer.count) }) {
            case let .success(count): return count
            case .failure(.wouldBlock): return nil
            case let .failure(error): throw .system(error, call: "read")
            }
        }
    }

    /// Writes as much of `buffers` (from `offset` bytes in) as the kernel takes now, in one `sendmsg`.
    ///
    /// Returns the number of bytes written, or nil if the send buffer is full. `MSG_NOSIGNAL` turns a
    /// write to a closed peer into `EPIPE` instead of killing the process with SIGPIPE.
    package func tryWrite(_ buffers: [[UInt8]], skipping offset: Int) throws(SocketFailure) -> Int? {
        if buffers.count == 1 { return try tryWrite(buffers[0], skipping: offset) }
        return try withDescriptor { fd throws(SocketFailure) in
            var skip = offset
            var vectors: [iovec] = []
            vectors.reserveCapacity(buffers.count)
            // The pointers stay valid only inside this closure nest, which also contains the call.
            return try Self.withPinned(buffers, index: 0) { pointers throws(SocketFailure) in
                for pointer in pointers {
                    if skip >= pointer.count {
                        skip -= pointer.count
                        continue
                    }
                    vectors.append(
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: pointer.baseAddress! + skip),
                            iov_len: pointer.count - skip))
                    skip = 0
                }
                if vectors.isEmpty { return 0 }
                let result = vectors.withUnsafeMutableBufferPointer { iov in
                    var message = msghdr()
                    message.msg_iov = iov.baseAddress
                    message.msg_iovlen = iov.count
                    return retryingInterrupts { sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
                }
                switch result {
                case let .success(count): return count
                case .failure(.wouldBlock): return nil
                case let .failure(error): throw .system(error, call: "sendmsg")
                }
            }
        }
    }

    /// The single-buffer case of `tryWrite`: a plain `send`, no iovec array to build.
    private func tryWrite(_ bytes: [UInt8], skipping offset: Int) throws(SocketFailure) -> Int? {
        if offset >= bytes.count { return 0 }
        return try withDescriptor { fd throws(SocketFailure) in
            let result = bytes.withUnsafeBytes { raw in
                retryingInterrupts {
                    Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            switch result {
            case let .success(count): return count
            case .failure(.wouldBlock): return nil
            case let .failure(error): throw .system(error, call: "send")
            }
        }
    }

    /// Pins every non-empty buffer's storage for the duration of `body`.
    private static func withPinned<Result>(
        _ buffers: [[UInt8]], index: Int, pinned: [UnsafeRawBufferPointer] = [],
        _ body: ([UnsafeRawBufferPointer]) throws(SocketFailure) -> Result
    ) throws(SocketFailure) -> Result {
        if index == buffers.count { return try body(pinned) }
        if buffers[index].isEmpty { return try withPinned(buffers, index: index + 1, pinned: pinned, body) }
        let outcome: Swift.Result<Result, SocketFailure> = buffers[index].withUnsafeBytes { bytes in
            do throws(SocketFailure) {
                return .success(try withPinned(buffers, index: index + 1, pinned: pinned + [bytes], body))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    // MARK: - Server side

    /// Binds to `address` (allowing quick rebinding of a recently used port) and starts listening.
    package func listen(on address: SocketAddress, backlog: Int32) throws(SocketFailure) {
        try setOption(level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, call: "setsockopt(SO_REUSEADDR)")
        try withDescriptor { fd throws(SocketFailure) in
            _ = try systemCall("bind") { address.withSockAddr { Glibc.bind(fd, $0, $1) } }
            _ = try systemCall("listen") { Glibc.listen(fd, backlog) }
        }
    }

    /// Accepts one pending connection, or returns nil if none is waiting.
    package func tryAccept() throws(SocketFailure) -> (Socket, SocketAddress?)? {
        try withDescriptor { fd throws(SocketFailure) in
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    retryingInterrupts { Glibc.accept(fd, pointer, &length) }.map { ($0, SocketAddress(pointer)) }
                }
            }
            switch result {
            case let .success((client, address)): return (Socket(adopting: client), address)
            case .failure(.wouldBlock): return nil
            // The connection died while queued; the caller simply waits for the next one.
            case .failure(.connectionAborted): return nil
            case let .failure(error): throw .system(error, call: "accept")
            }
        }
    }
}
