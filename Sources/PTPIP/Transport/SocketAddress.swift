import Dispatch
import Glibc
import Synchronization

/// An IPv4 or IPv6 address with a TCP port, as the kernel wants it.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    /// The numeric host ("127.0.0.1", "::1").
    package let host: String
    /// The TCP port.
    package let port: UInt16

    /// "host:port", with IPv6 hosts in brackets ("[::1]:15740").
    package var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `AF_INET` or `AF_INET6`.
    var family: Int32 {
        switch storage {
        case .v4: return AF_INET
        case .v6: return AF_INET6
        }
    }

    /// Parses an IPv4 or IPv6 literal (brackets allowed around IPv6); nil for anything else (a host name).
    package init?(numericHost: String, port: UInt16) {
        var literal = numericHost
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self.init(storage: .v4(v4))
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self.init(storage: .v6(v6))
            return
        }
        return nil
    }

    /// Reads an address the kernel filled in (from `getaddrinfo`, `accept` or `getsockname`).
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            self.init(storage: .v4(UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)))
        case AF_INET6:
            self.init(storage: .v6(UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)))
        default:
            return nil
        }
    }

    private init(storage: Storage) {
        self.storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch storage {
        case var .v4(address):
            port = UInt16(bigEndian: address.sin_port)
            inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
        case var .v6(address):
            port = UInt16(bigEndian: address.sin6_port)
            inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
        }
        host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch storage {
        case var .v4(address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case var .v6(address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }

    package static func == (lhs: SocketAddress, rhs: SocketAddress) -> Bool {
        lhs.family == rhs.family && lhs.host == rhs.host && lhs.port == rhs.port
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(host)
        hasher.combine(port)
    }
}

// MARK: - Name resolution

extension SocketAddress {
    /// The addresses of `host` (a literal or a name) for TCP, in the resolver's order.
    ///
    /// `getaddrinfo` blocks and cannot be interrupted, so it runs on a Dispatch worker, never on the
    /// cooperative pool; cancellation (a caller's `withTimeout`) abandons the lookup (its result is dropped
    /// later).
    package static func resolve(host: String, port: UInt16) async throws -> [SocketAddress] {
        if let literal = SocketAddress(numericHost: host, port: port) { return [literal] }
        let resumer = OnceResumer<[SocketAddress]>()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                resumer.install(continuation)
                DispatchQueue.global().async {
                    resumer.resume(with: Result { try lookUp(host: host, port: port) })
                }
            }
        } onCancel: {
            resumer.resume(with: .failure(PTPIPError.cancelled(during: "name resolution of \(host)")))
        }
    }

    /// The blocking `getaddrinfo` call itself.
    private static func lookUp(host: String, port: UInt16) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? Errno.current.description : String(cString: gai_strerror(status))
            throw PTPIPError.nameResolutionFailed(host: host, reason: reason)
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var cursor = list
        while let entry = cursor {
            if let raw = entry.pointee.ai_addr, let address = SocketAddress(raw), !addresses.contains(address) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        if addresses.isEmpty { throw PTPIPError.nameResolutionFailed(host: host, reason: "no IPv4 or IPv6 address") }
        return addresses
    }
}

/// A continuation that the first of several racing parties resumes; the others are ignored.
final class OnceResumer<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case installed(UnsafeContinuation<Value, any Error>)
        case finished(Result<Value, any Error>?)
    }

    private let state = Mutex(State.waiting)

    /// Installs the continuation; resumes it at once if a result came first.
    func install(_ continuation: UnsafeContinuation<Value, any Error>) {
        let early: Result<Value, any Error>?? = state.withLock { state in
            switch state {
            case .waiting:
                state = .installed(continuation)
                return .none
            case let .finished(result):
                state = .finished(nil)
                return .some(result)
            case .installed:
                preconditionFailure("continuation installed twice")
            }
        }
        if case let .some(result?) = early { continuation.resume(with: result) }
    }

    /// Resumes with `result` unless someone already did.
    func resume(with result: Result<Value, any Error>) {
        let continuation: UnsafeContinuation<Value, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .finished(result)
                return nil
            case let .installed(continuation):
                state = .finished(nil)
                return continuation
            case .finished:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
