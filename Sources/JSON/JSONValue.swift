/// Any JSON value (RFC 8259): the one value type of hdrshoot for JSON whose shape is not a `Codable` type of
/// its own (the Camera Remote API's params and results, a session-log line).
///
/// Booleans and numbers stay apart (`true` is never `1`), and an object keeps its members in order (the order a
/// person reads a log line in: `t`, `kind`, then the rest). `encode(into:)` writes compact JSON by hand, so a
/// log line costs microseconds, not a `JSONEncoder`; `Codable` reads and writes it through Foundation's coders.
package indirect enum JSONValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A whole number.
    case integer(Int)
    /// A number with a fraction.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object(JSONObject)

    /// A whole number of any width (clamped to `Int`).
    package static func int(_ value: some BinaryInteger) -> JSONValue { .integer(Int(clamping: value)) }

    /// The string, if this is one.
    package var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// The whole number, if this is one.
    package var integer: Int? {
        if case let .integer(value) = self { return value }
        return nil
    }

    /// The number (whole or not) as a `Double`, if this is one.
    package var doubleValue: Double? {
        switch self {
        case let .integer(value): Double(value)
        case let .number(value): value
        default: nil
        }
    }

    /// The whole number, also when written with a fraction of zero (`3.0`), if this is one.
    package var intValue: Int? {
        switch self {
        case let .integer(value): value
        case let .number(value) where value.rounded() == value && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    /// The boolean, if this is one.
    package var bool: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    package var array: [JSONValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    package var object: JSONObject? {
        if case let .object(value) = self { return value }
        return nil
    }

    /// The elements, if this is an array of strings only.
    package var strings: [String]? {
        guard let array else { return nil }
        var out: [String] = []
        for element in array {
            guard let text = element.string else { return nil }
            out.append(text)
        }
        return out
    }

    /// The value at `key` of an object (nil for anything else).
    package subscript(key: String) -> JSONValue? { object?[key] }
}

/// A JSON object's members in order; written as a dictionary literal (`["type": .string("x")]`) or as a list of
/// pairs (`[("t", .number(0)), ("kind", .string("op"))]`), both keeping the order written.
package struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral
{
    /// The members' keys, in order.
    package private(set) var keys: [String]
    /// The members' values, in the keys' order.
    package private(set) var values: [JSONValue]

    /// An object of `members`, in their order.
    package init(_ members: some Sequence<(String, JSONValue)>) {
        keys = []
        values = []
        for (key, value) in members {
            keys.append(key)
            values.append(value)
        }
    }

    package init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
    package init(arrayLiteral elements: (String, JSONValue)...) { self.init(elements) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { keys.count }
    package subscript(position: Int) -> (String, JSONValue) { (keys[position], values[position]) }

    /// The value of the first member named `key`.
    package subscript(key: String) -> JSONValue? {
        keys.firstIndex(of: key).map { values[$0] }
    }

    /// Two objects are equal when they have the same members, in any order (RFC 8259 §4: an object is
    /// unordered); the order is kept for the text, not for meaning.
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { key, value in rhs[key] == value }
    }

    package func hash(into hasher: inout Hasher) {
        for index in keys.indices.sorted(by: { keys[$0] < keys[$1] }) {
            hasher.combine(keys[index])
            hasher.combine(values[index])
        }
    }
}

// MARK: - Encoding by hand

extension JSONValue {
    /// The value as compact JSON, appended to `output` (members in their order).
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
        case let .object(members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.encodeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                value.encode(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal (RFC 8259 §7): quote, backslash and control characters escaped.
    package static func encodeString(_ text: String, into output: inout [UInt8]) {
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

    /// Compact JSON text (members in their order).
    package var jsonText: String {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    package var description: String { jsonText }
}

// MARK: - Codable

extension JSONValue: Codable {
    /// Reads any JSON value; an object's members come back sorted by key (a coder keeps no order).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            let members = try container.decode([String: JSONValue].self)
            self = .object(JSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(members):
            // The first member of a repeated key wins, as `subscript(key:)` reads it.
            var dictionary: [String: JSONValue] = [:]
            for (key, value) in members where dictionary[key] == nil { dictionary[key] = value }
            try container.encode(dictionary)
        case .null: try container.encodeNil()
        }
    }
}
