import Dispatch
import Glibc
import Posix
import Synchronization

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
