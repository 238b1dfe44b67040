import Foundation
import JSON

extension JSONValue {
    /// One JSON text decoded; nil when it is not JSON.
    package init?(json line: some StringProtocol) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else { return nil }
        self = value
    }
}
