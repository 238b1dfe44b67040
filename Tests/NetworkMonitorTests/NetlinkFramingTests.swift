import ByteCoding
import Testing

@testable import NetworkMonitor

@Suite("netlink framing and attributes")
struct NetlinkFramingTests {
    /// Two messages in one datagram, the first with a 5-byte payload that needs 3 bytes of padding.
    let pair = [
        NetlinkMessage(type: 16, flags: [.multi], sequence: 7, portID: 9, payload: [1, 2, 3, 4, 5]),
        NetlinkMessage(type: NetlinkMessageType.done, flags: [.multi], sequence: 7, portID: 9, payload: [0, 0, 0, 0])
    ]

    @Test func messagesRoundTripWithFourByteAlignment() throws {
        let bytes = pair.flatMap { $0.encoded() }
        #expect(bytes.count == 24 + 20)
        #expect(try NetlinkMessage.parseAll(datagram: bytes) == pair)
    }

    @Test func lengthShorterThanTheHeaderIsRefused() {
        var bytes = pair[0].encoded()
        bytes[0] = 8
        #expect(throws: ByteCodingError.self) { try NetlinkMessage.parseAll(datagram: bytes) }
    }

    @Test func lengthBeyondTheDatagramIsRefused() {
        var bytes = pair[0].encoded()
        bytes[0] = 200
        #expect(throws: ByteCodingError.self) { try NetlinkMessage.parseAll(datagram: bytes) }
    }

    @Test func everyTruncationIsAnErrorNotATrap() {
        let bytes = pair.flatMap { $0.encoded() }
        // Cutting only the first message's alignment padding (21...23) or at the boundary (24) leaves whole messages.
        for cut in 1..<bytes.count where !(21...24).contains(cut) {
            #expect(throws: ByteCodingError.self) { try NetlinkMessage.parseAll(datagram: Array(bytes.prefix(cut))) }
        }
    }

    @Test func attributesRoundTripAndUnknownOnesAreKept() throws {
        var writer = NetlinkAttributeWriter()
        writer.append(3, string: "wlan0")
        writer.append(999, [0xAA]) // unknown: kept in `all`, skipped by callers
        writer.append(16, integer: UInt8(6))
        let attributes = try NetlinkAttributes(parsing: writer.bytes)
        #expect(attributes.all.map(\.type) == [3, 999, 16])
        #expect(attributes[3]?.string() == "wlan0")
        #expect(try attributes[16]?.uint8("operstate") == 6)
    }

    @Test func nestedAttributesParseWithOrWithoutTheNestedFlag() throws {
        var inner = NetlinkAttributeWriter()
        inner.append(1, integer: UInt32(7))
        for type: UInt16 in [7, 7 | 0x8000] {
            var outer = NetlinkAttributeWriter()
            outer.append(type, inner.bytes)
            let attribute = try #require(try NetlinkAttributes(parsing: outer.bytes)[7])
            #expect(try attribute.nested("groups")[1]?.uint32("id") == 7)
        }
    }

    @Test func attributeLengthBelowItsHeaderIsRefused() {
        #expect(throws: ByteCodingError.self) { try NetlinkAttributes(parsing: [2, 0, 1, 0]) }
    }

    @Test func ssidElementIsFoundAmongOtherElements() throws {
        let elements: [UInt8] = [1, 2, 0x82, 0x84, 0, 4] + Array("Cam1".utf8) + [3, 1, 6]
        #expect(try InformationElements.ssid(in: elements) == SSID("Cam1"))
        #expect(throws: ByteCodingError.self) { try InformationElements.ssid(in: [0, 5, 1]) }
    }

    @Test(arguments: [
        ([UInt8]("DIRECT-ab:ILCE-7M3".utf8), "DIRECT-ab:ILCE-7M3"),
        ([0x43, 0xFF, 0x00, 0x5C], "C\\xff\\x00\\x5c"),
        ([], "")
    ])
    func ssidRendersPrintably(bytes: [UInt8], rendered: String) throws {
        #expect(try #require(SSID(bytes: bytes)).description == rendered)
    }

    @Test func ssidLongerThan32BytesIsRejected() {
        #expect(SSID(bytes: [UInt8](repeating: 0x41, count: 33)) == nil)
    }

    @Test func ipAddressesParseAndPrint() {
        #expect(IPAddress("192.168.122.1")?.bytes == [192, 168, 122, 1])
        #expect(IPAddress("fe80::1")?.description == "fe80::1")
        #expect(IPAddress("camera.local") == nil)
    }
}
