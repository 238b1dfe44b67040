import Glibc

/// A host name that does not resolve: what the resolver said, in words.
package struct NameResolutionFailure: Error, Sendable, Hashable {
    /// The name looked up.
    package let host: String
    /// Why it failed ("Name or service not known", an `Errno`'s text, "no IPv4 or IPv6 address").
    package let reason: String
}

extension SocketAddress {
    /// The addresses of `host` (a literal or a name) for TCP, in the resolver's order: the one resolver.
    ///
    /// `getaddrinfo` blocks and cannot be interrupted, so it runs through `runBlocking`, never on the
    /// cooperative pool; cancellation (a caller's `withTimeout`) abandons the lookup with `CancellationError`.
    /// Throws `NameResolutionFailure` for a name without addresses.
    package static func resolve(host: String, port: UInt16) async throws -> [SocketAddress] {
        if let literal = SocketAddress(numericHost: host, port: port) { return [literal] }
        return try await runBlocking { try lookUp(host: host, port: port) }
    }

    /// The blocking `getaddrinfo` call itself.
    private static func lookUp(host: String, port: UInt16) throws(NameResolutionFailure) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? Errno.current.description : String(cString: gai_strerror(status))
            throw NameResolutionFailure(host: host, reason: reason)
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
        if addresses.isEmpty { throw NameResolutionFailure(host: host, reason: "no IPv4 or IPv6 address") }
        return addresses
    }
}
