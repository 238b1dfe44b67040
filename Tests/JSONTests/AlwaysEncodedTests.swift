import Foundation
import JSON
import Testing

/// `@AlwaysEncoded`: an absent optional is written as `null` under its key, a present one as its value, and a
/// plain optional beside it keeps the synthesized rule (left out when absent).
@Suite struct AlwaysEncodedTests {
    struct Entry: Encodable {
        var name: String
        @AlwaysEncoded var serial: String?
        @AlwaysEncoded var port: Int?
        var folder: String?
    }

    private func line(_ entry: Entry) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(entry), as: UTF8.self)
    }

    @Test func anAbsentValueIsNullUnderItsKeyAndAPlainOptionalIsLeftOut() throws {
        #expect(try line(Entry(name: "a", serial: nil, port: nil)) == #"{"name":"a","port":null,"serial":null}"#)
    }

    @Test func aPresentValueIsWrittenAsItself() throws {
        #expect(
            try line(Entry(name: "b", serial: "X1", port: 15740, folder: "rep-001"))
                == #"{"folder":"rep-001","name":"b","port":15740,"serial":"X1"}"#)
    }
}
