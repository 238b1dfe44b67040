/// One JSON value of a session-log line, encoded by hand so a line costs microseconds, not a `JSONEncoder`.
///
/// Objects keep their key order (the order a person reads a line in: `t`, `kind`, then the rest).
package enum LogValue: Sendable, Equatable {
    /// A string.
    case string(String)
    /// A whole number.
    case integer(Int64)
    /// A number with a fraction.
    case number(Double)
    /// true or false.
    case bool(Bool)
    /// null.
    case null
    /// A list.
    case array([LogValue])
    /// Keys and values, in order.
    case object([(String, LogValue)])

    /// Two objects are equal when their pairs are, in order.
    package static func == (lhs: LogValue, rhs: LogValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A whole number.
    package static func int(_ value: some BinaryInteger) -> LogValue { .integer(Int64(clamping: value)) }

    /// The string, if this is one.
    package var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The number (whole or not), if this is one.
    package var doubleValue: Double? {
        switch self {
        case let .integer(value): Double(value)
        case let .number(value): value
        default: nil
        }
    }

    /// The whole number, if this is one.
    package var intValue: Int? {
        switch self {
        case let .integer(value): Int(value)
        case let .number(value) where value.rounded() == value && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    /// The list, if this is one.
    package var arrayValue: [LogValue]? {
        if case let .array(items) = self { return items }
        return nil
    }

    /// The value at `key` of an object.
    package subscript(key: String) -> LogValue? {
        if case let .object(pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    // MARK: - Encoding

    /// The value as compact JSON, appended to `output`.
    package func encode(into output: inout [UInt8]) {
        switch self {
        case let .string(text): Self.encodeString(text, into: &output)
        case let .integer(value): output.append(contentsOf: String(value).utf8)
        case let .number(value):
            output.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        case let .bool(value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case let .array(items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.encode(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case let .object(pairs):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.encodeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                value.encode(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal (RFC 8259 §7): quote, backslash and control characters escaped.
    static func encodeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings (names, hex) need no escape: one copy instead of a switch per byte.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output.append(contentsOf: text.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Lower-case hex of `bytes`, no separators (the data phases that describe a body).
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `hex` (as `hex(_:)` writes it); nil when it is not an even run of hex digits.
    package static func bytes(fromHex hex: String) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// `0x9209`.
    package static func hexCode(_ code: UInt16) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = Array("0x".utf8)
        for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int((code >> UInt16(shift)) & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
