/// A Wi-Fi network name: up to 32 raw bytes, compared as bytes (not necessarily UTF-8).
package struct SSID: Sendable, Hashable, CustomStringConvertible {
    /// IEEE 802.11 limits an SSID to 32 octets.
    package static let maximumLength = 32

    /// The raw octets (empty for a hidden network's beacon).
    package let bytes: [UInt8]

    /// Wraps raw octets; nil when longer than 32 bytes.
    package init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maximumLength else { return nil }
        self.bytes = bytes
    }

    /// The UTF-8 octets of `name`; nil when they are longer than 32 bytes.
    package init?(_ name: String) { self.init(bytes: Array(name.utf8)) }

    /// A printable rendering: the text when the bytes are valid UTF-8 without control characters,
    /// otherwise printable ASCII with every other byte (and the backslash) escaped as `\xNN`.
    package var description: String {
        if let text = String(validating: bytes, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\\" })
        {
            return text
        }
        var rendered = ""
        for byte in bytes {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                rendered.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = String(byte, radix: 16, uppercase: false)
                rendered += "\\x" + (digits.count == 1 ? "0" + digits : digits)
            }
        }
        return rendered
    }
}
