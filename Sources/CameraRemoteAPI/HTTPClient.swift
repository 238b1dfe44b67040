import HTTP
import Posix
import Synchronization
import Timing

/// A small HTTP/1.1 client over the project's non-blocking `Socket`s, for one camera (one host and port).
///
/// Why our sockets and not FoundationNetworking's URLSession: measured on loopback with
/// `hdrshoot-bench remote-api` (release, 2 shared cores, one JSON-RPC call to the in-process simulator, both
/// keeping the connection alive), a call takes 0.19-0.20 ms median / 0.29-0.30 ms p99 here against 0.85-0.89 ms
/// / 5.7-7.2 ms through URLSession, whose libcurl worker thread adds hand-offs to every request. Beyond speed,
/// URLSession's timeouts run on the wall clock (a test clock cannot decide them) and it buffers a whole body
/// before we could check its size. Here every wait parks on the shared `IOEventLoop`, every request is bounded
/// by `withTimeout` on the injected clock, and `HTTPLimits` are checked before bytes are kept.
///
/// Connections are kept alive and reused one request at a time; concurrent requests (a getEvent long poll
/// while a shot is taken) each get their own connection, as a camera expects. An idle connection the camera
/// has closed is noticed before reuse, so no request is ever sent twice.
package final class HTTPClient: Sendable {
    /// The camera's server.
    package let server: SocketAddress
    /// The clock every timeout is measured on.
    package let clock: any Clock<Duration>
    /// How long connecting may take.
    package let connectTimeout: Duration
    private let pool = Mutex(Pool())

    private struct Pool {
        var idle: [HTTPConnection] = []
        var open: [ObjectIdentifier: HTTPConnection] = [:]
        var closed = false
    }

    /// At most this many idle connections are kept (a long poll's and a command's).
    static let maximumIdle = 2

    /// A client for `host` (a numeric IPv4 or IPv6 address) and `port`; timeouts run on `clock`.
    package init(
        host: String, port: UInt16, connectTimeout: Duration = .seconds(5),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(CameraRemoteAPIError) {
        guard let address = SocketAddress(numericHost: host, port: port) else {
            throw .invalidURL("http://\(host):\(port)/")
        }
        self.server = address
        self.clock = clock
        self.connectTimeout = connectTimeout
    }

    deinit { close() }

    /// Sends `request` and returns the response, all within `timeout` on the clock (connecting included).
    ///
    /// Any status is returned (callers decide what a 404 means); a broken limit, malformed bytes, a lost
    /// connection or the timeout throw. The connection goes back to the pool when the response allows it.
    package func send(
        _ request: HTTPRequest, limits: HTTPLimits = .jsonRPC, timeout: Duration
    ) async throws(CameraRemoteAPIError) -> HTTPResponse {
        let address = server.description
        let during = "\(request.method) \(request.target)"
        do {
            return try await withTimeout(
                after: timeout, on: clock, throwing: CameraRemoteAPIError.timedOut(address: address, during: during)
            ) { [self] in
                let connection = try await checkOut()
                do {
                    let response = try await connection.exchange(
                        request.encoded(host: server.description), isHead: request.method == "HEAD", limits: limits,
                        during: during)
                    checkIn(connection, reusable: response.keepsAlive && request.keepsAlive)
                    return response
                } catch {
                    checkIn(connection, reusable: false)
                    throw error
                }
            }
        } catch {
            throw error.remoteAPI(address: address, during: during)
        }
    }

    /// Closes every connection; requests under way fail with `.cancelled`. Idempotent.
    package func close() {
        let all = pool.withLock { pool -> [HTTPConnection] in
            pool.closed = true
            pool.idle = []
            defer { pool.open = [:] }
            return Array(pool.open.values)
        }
        for connection in all { connection.socket.close() }
    }

    private func checkOut() async throws -> HTTPConnection {
        while let reused = try takeIdle() {
            if reused.isStillOpen() { return reused }
            forget(reused)
        }
        let socket = try Socket(family: server.family)
        let connection = HTTPConnection(socket: socket, address: server.description)
        let admitted = pool.withLock { pool -> Bool in
            guard !pool.closed else { return false }
            pool.open[ObjectIdentifier(connection)] = connection
            return true
        }
        guard admitted else {
            socket.close()
            throw CameraRemoteAPIError.cancelled(during: "connect (client closed)")
        }
        do {
            let server = server
            try await withTimeout(after: connectTimeout, on: clock, throwing: SocketFailure.timedOut) {
                try await socket.connect(to: server)
            }
        } catch {
            forget(connection)
            throw error.remoteAPI(address: server.description, during: "connect")
        }
        // Requests are small and latency-bound; best effort, a socket that refuses still works.
        try? socket.setNoDelay()
        return connection
    }

    private func takeIdle() throws -> HTTPConnection? {
        try pool.withLock { pool in
            guard !pool.closed else { throw CameraRemoteAPIError.cancelled(during: "request (client closed)") }
            return pool.idle.popLast()
        }
    }

    private func checkIn(_ connection: HTTPConnection, reusable: Bool) {
        let keep = pool.withLock { pool -> Bool in
            guard reusable, !pool.closed, pool.idle.count < Self.maximumIdle else { return false }
            pool.idle.append(connection)
            return true
        }
        if !keep { forget(connection) }
    }

    private func forget(_ connection: HTTPConnection) {
        _ = pool.withLock { $0.open.removeValue(forKey: ObjectIdentifier(connection)) }
        connection.socket.close()
    }
}

/// One TCP connection carrying one request at a time.
final class HTTPConnection: Sendable {
    let socket: Socket
    let address: String

    init(socket: Socket, address: String) {
        self.socket = socket
        self.address = address
    }

    /// Whether an idle connection can carry a request: the peer has not closed it nor sent stray bytes.
    func isStillOpen() -> Bool {
        var byte: UInt8 = 0
        let result = try? withUnsafeMutableBytes(of: &byte) { try socket.tryRead(into: $0) }
        // nil from tryRead: nothing to read, the connection is quiet and open.
        return result == .some(nil)
    }

    /// Writes `bytes`, then reads until one whole response has come.
    func exchange(_ bytes: [UInt8], isHead: Bool, limits: HTTPLimits, during: String) async throws -> HTTPResponse {
        var written = 0
        do {
            while written < bytes.count {
                if let count = try socket.tryWrite([bytes], skipping: written) {
                    written += count
                } else {
                    try await socket.wait(for: .writable)
                }
            }
        } catch {
            throw error.remoteAPI(address: address, during: "send (\(during))")
        }
        var parser = HTTPResponseParser(limits: limits)
        if isHead { parser.expectNoBody() }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { scratch.deallocate() }
        while true {
            let count: Int?
            do {
                count = try socket.tryRead(into: scratch)
            } catch {
                throw error.remoteAPI(address: address, during: "receive (\(during))")
            }
            switch count {
            case nil:
                do {
                    try await socket.wait(for: .readable)
                } catch {
                    throw error.remoteAPI(address: address, during: "receive (\(during))")
                }
            case 0?:
                if let response = try parser.finishAtEndOfStream() { return response }
                throw CameraRemoteAPIError.connectionLost(address: address, during: during)
            case let count?:
                parser.append(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                if let response = try parser.nextResponse() {
                    // Without pipelining nothing may follow a response; a connection that has more is not reused.
                    if parser.hasBufferedBytes {
                        return HTTPResponse(
                            status: response.status, reason: response.reason, headers: response.headers,
                            body: response.body, keepsAlive: false)
                    }
                    return response
                }
            }
        }
    }
}

extension Error {
    /// This error as the layer's error: socket failures mapped, cancellation named, ours passed through.
    package func remoteAPI(address: String, during: String) -> CameraRemoteAPIError {
        if let error = self as? CameraRemoteAPIError { return error }
        if let error = self as? HTTPError { return CameraRemoteAPIError(error) }
        if let failure = self as? SocketFailure { return failure.remoteAPI(address: address, during: during) }
        if self is CancellationError { return .cancelled(during: "\(during) (\(address))") }
        return .cancelled(during: "\(during) (\(address)): \(self)")
    }
}
