import Glibc

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
    package var family: Int32 {
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
    package init?(_ address: UnsafePointer<sockaddr>) {
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
    package func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch storage {
        case var .v4(address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case var .v6(address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
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
