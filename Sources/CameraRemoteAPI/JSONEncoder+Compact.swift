import Foundation

extension JSONEncoder {
    /// Sorted keys and no escaped slashes: stable, compact text for requests and tests.
    static var compact: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
