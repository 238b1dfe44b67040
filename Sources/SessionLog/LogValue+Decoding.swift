import Foundation

extension LogValue: Decodable {
    /// Reads any JSON value (objects come back with their keys sorted: a reader looks keys up by name).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([LogValue].self) {
            self = .array(value)
        } else {
            let object = try container.decode([String: LogValue].self)
            self = .object(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// One JSON text decoded; nil when it is not JSON.
    package init?(json line: some StringProtocol) {
        guard let value = try? JSONDecoder().decode(LogValue.self, from: Data(line.utf8)) else { return nil }
        self = value
    }
}
