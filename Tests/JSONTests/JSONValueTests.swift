import Foundation
import JSON
import Testing

/// The one JSON value type: members kept in the order written, booleans and numbers apart, the hand-written
/// text read back by Foundation's decoder.
@Suite struct JSONValueTests {
    @Test func anObjectIsWrittenInTheOrderItWasBuiltAndReadBackEqual() throws {
        let line: JSONValue = .object([
            ("t", .number(0.5)), ("kind", .string("op")), ("params", .array([.integer(1), .int(UInt16(0xD2C2))])),
            ("ok", .bool(true)), ("error", .null), ("text", .string("a \"quoted\"\nline\u{1}"))
        ])
        #expect(
            line.jsonText
                == #"{"t":0.5,"kind":"op","params":[1,53954],"ok":true,"error":null,"text":"a \"quoted\"\nline\u0001"}"#
        )
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(line.jsonText.utf8))
        #expect(decoded == line)
        // Decoding keeps no order (a coder has none): the members come back sorted, equal all the same.
        #expect(decoded.object?.keys == ["error", "kind", "ok", "params", "t", "text"])
        #expect(decoded["params"]?.array?.compactMap(\.integer) == [1, 0xD2C2])
    }

    @Test func booleansAndNumbersStayApart() throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data("[true,1,1.5,3.0,\"x\"]".utf8))
        #expect(decoded == .array([.bool(true), .integer(1), .number(1.5), .integer(3), .string("x")]))
        #expect(decoded.array?[0].integer == nil)
        #expect(decoded.array?[1].bool == nil)
        #expect(JSONValue.number(3.0).intValue == 3 && JSONValue.number(3.5).intValue == nil)
        #expect(JSONValue.integer(2).doubleValue == 2)
    }

    @Test func equalObjectsIgnoreOrderButTheTextKeepsIt() {
        let ab: JSONValue = .object(["a": .integer(1), "b": .integer(2)])
        let ba: JSONValue = .object(["b": .integer(2), "a": .integer(1)])
        #expect(ab == ba)
        #expect(Set([ab, ba]).count == 1)
        #expect(ab.jsonText == #"{"a":1,"b":2}"# && ba.jsonText == #"{"b":2,"a":1}"#)
        #expect(ab != .object(["a": .integer(1)]))
    }

    @Test func foundationsEncoderWritesTheSameValue() throws {
        let value: JSONValue = .object(["id": .integer(7), "result": .array([.array([.string("x")]), .null])])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == #"{"id":7,"result":[["x"],null]}"#)
    }
}
