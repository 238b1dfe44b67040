/// A 48-bit IEEE 802 hardware address, as nl80211 (NL80211_ATTR_MAC) and the neighbour table (NDA_LLADDR)
/// carry it: six bytes in transmission order.
package struct MACAddress: Sendable, Hashable, CustomStringConvertible {
    /// The six bytes.
    package let bytes: [UInt8]

    /// Wraps six bytes; nil for any other length.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// Parses "04:f0:21:32:42:ca" (colons or dashes, either case); nil for anything else.
    package init?(_ text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    /// Lower-case, colon-separated ("04:f0:21:32:42:ca"), the way `iw` prints it.
    package var description: String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}
