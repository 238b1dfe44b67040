import Glibc

/// Numeric IPv4 and IPv6 addresses as text and as network-order bytes (`inet_pton`, `inet_ntop`), for
/// layers that carry addresses as bytes (netlink) rather than as socket addresses.
package enum NumericAddress {
    /// The IPv4 address family (`AF_INET`, 2), as netlink's one-byte family fields carry it.
    package static let ipv4Family = UInt8(AF_INET)
    /// The IPv6 address family (`AF_INET6`, 10).
    package static let ipv6Family = UInt8(AF_INET6)

    /// The family and the network-order bytes (4 or 16) of a numeric literal ("192.168.122.1", "fe80::1");
    /// nil for anything else (a host name, brackets, a port).
    package static func parse(_ text: String) -> (family: UInt8, bytes: [UInt8])? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return (ipv4Family, withUnsafeBytes(of: &v4) { Array($0) }) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return (ipv6Family, withUnsafeBytes(of: &v6) { Array($0) }) }
        return nil
    }

    /// The usual text form (dotted quad, or RFC 5952 for IPv6) of `bytes` in `family`; nil when they do not
    /// make an address of that family.
    package static func text(family: UInt8, bytes: [UInt8]) -> String? {
        guard bytes.count == (family == ipv4Family ? 4 : family == ipv6Family ? 16 : -1) else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(Int32(family), raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
