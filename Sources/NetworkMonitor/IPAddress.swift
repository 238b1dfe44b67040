import Posix

/// An IPv4 or IPv6 address as netlink carries it (network-order bytes).
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// AF_INET (2) or AF_INET6 (10).
    package let family: UInt8
    /// 4 or 16 bytes in network order.
    package let bytes: [UInt8]

    /// Wraps raw bytes of a known family; nil when the length does not match the family.
    package init?(family: UInt8, bytes: [UInt8]) {
        switch (family, bytes.count) {
        case (NumericAddress.ipv4Family, 4), (NumericAddress.ipv6Family, 16): break
        default: return nil
        }
        self.family = family
        self.bytes = bytes
    }

    /// Parses a numeric IPv4 or IPv6 literal ("192.168.122.1", "fe80::1"); nil for anything else.
    package init?(_ text: String) {
        guard let parsed = NumericAddress.parse(text) else { return nil }
        self.init(family: parsed.family, bytes: parsed.bytes)
    }

    /// The usual text form (dotted quad or RFC 5952 IPv6).
    package var description: String { NumericAddress.text(family: family, bytes: bytes) ?? "?" }
}
