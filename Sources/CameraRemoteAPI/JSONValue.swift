import Foundation

/// A JSON value as the Camera Remote API uses them: params and results are arrays of these.
///
/// Decoding keeps booleans and numbers apart (`true` is never `1`), so a `getEvent` flag and an integer
/// result cannot be confused.
package indirect enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// A whole number (the API's integers are 32-bit, p. 276).
    case integer(Int)
    /// A number with a fraction.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An array.
    case array([JSONValue])
    /// An object (key order is not kept).
    case object([String: JSONValue])
    /// `null`.
    case null

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .double(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// The string, if this is one.
    package var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// The integer, if this is one.
    package var integer: Int? {
        if case let .integer(value) = self { return value }
        return nil
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
    package var object: [String: JSONValue]? {
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

    /// Compact JSON text.
    package var description: String {
        guard let data = try? JSONEncoder.compact.encode(self) else { return "?" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension JSONEncoder {
    /// Sorted keys and no escaped slashes: stable, compact text for requests and tests.
    static var compact: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
