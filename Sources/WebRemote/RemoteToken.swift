/// The secret that commands carry as `Authorization: Bearer TOKEN`: 192 random bits, base64url without padding.
///
/// It travels to the phone in the URL's fragment (`#token=...`), which a browser never sends in a request
/// line, so it never lands in a log of requests. Compared in constant time.
package struct RemoteToken: Sendable, Equatable, CustomStringConvertible {
    /// The token's text (32 characters of `A-Z a-z 0-9 - _`).
    package let text: String

    /// A token from `text`, nil when it is not 22 to 128 characters of the URL-safe alphabet (22 characters
    /// of base64url are 132 bits, the least a token may carry).
    package init?(_ text: String) {
        guard (22...128).contains(text.utf8.count), text.utf8.allSatisfy(Self.isURLSafe) else { return nil }
        self.text = text
    }

    /// A new token of 24 random bytes from the system's generator (getrandom(2)).
    package static func random() -> RemoteToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        guard let token = RemoteToken(Self.base64URL(bytes)) else { preconditionFailure("32 URL-safe characters") }
        return token
    }

    /// Whether `presented` is this token, comparing every byte whatever the first difference.
    package func matches(_ presented: String) -> Bool {
        let mine = Array(text.utf8)
        let theirs = Array(presented.utf8)
        var difference = UInt8(mine.count == theirs.count ? 0 : 1)
        for index in mine.indices { difference |= mine[index] ^ (index < theirs.count ? theirs[index] : 0) }
        return difference == 0
    }

    /// Not the token itself: it must not reach a log by accident.
    package var description: String { "RemoteToken(\(text.utf8.count) characters)" }

    static func isURLSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default: return false
        }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index + 2 < bytes.count {
            let value = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[(value >> shift) & 63]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let value = Int(bytes[index]) << 16 | (rest > 1 ? Int(bytes[index + 1]) << 8 : 0)
            for shift in [18, 12, 6].prefix(rest + 1) { out.append(alphabet[(value >> shift) & 63]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
