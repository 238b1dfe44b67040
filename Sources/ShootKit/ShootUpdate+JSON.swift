import Foundation

extension ShootUpdate {
    /// The update as one line of `--json`: a JSON object with sorted keys and a newline.
    package var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a plain number, string, bool or array of them: encoding cannot fail.
        guard let data = try? encoder.encode(self) else { preconditionFailure("a ShootUpdate always encodes") }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The update of one `--json` line.
    package init(jsonLine: String) throws {
        self = try JSONDecoder().decode(ShootUpdate.self, from: Data(jsonLine.utf8))
    }
}
