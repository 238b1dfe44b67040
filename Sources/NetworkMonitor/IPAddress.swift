import Glibc

/// An IPv4 or IPv6 address as netlink carries it (network-order bytes).
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// AF_INET (2) or AF_INET6 (10).
    package let family: UInt8
    /// 4 or 16 bytes in network order.
    package let bytes: [UInt8]

    /// Wraps raw bytes of a known family; nil when the length does not match the family.
    package init?(family: UInt8, bytes: [UInt8]) {
        switch (Int32(family), bytes.count) {
        case (AF_INET, 4), (AF_INET6, 16): break
        default: return nil
        }
        self.family = family
        self.bytes = bytes
    }

    /// Parses a numeric IPv4 or IPv6 literal ("192.168.122.1", "fe80::1"); nil for anything else.
    package init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(family: UInt8(AF_INET), bytes: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self.init(family: UInt8(AF_INET6), bytes: withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    /// The usual text form (dotted quad or RFC 5952 IPv6).
    package var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(Int32(family), raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
