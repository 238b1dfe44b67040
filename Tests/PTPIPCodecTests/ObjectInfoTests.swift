import ByteCoding
import Testing

@testable import PTPIPCodec

@Suite struct ObjectInfoTests {
    static let sample = ObjectInfo(
        storageID: 0x0001_0001, objectFormat: 0x3801, objectCompressedSize: 8_123_456, thumbFormat: 0x3808,
        thumbCompressedSize: 12_000, thumbPixWidth: 160, thumbPixHeight: 120, imagePixWidth: 5472,
        imagePixHeight: 3648, imageBitDepth: 24, filename: "DSC00042.JPG", captureDate: "20240601T153000",
        modificationDate: "20240601T153000")

    @Test func encodeThenDecodeGivesTheSameDataset() throws {
        #expect(try ObjectInfo(decoding: Self.sample.encoded()) == Self.sample)
    }

    @Test func fixedPartIsFiftyTwoBytesThenStrings() {
        let bytes = Self.sample.encoded()
        // 52 bytes of integers, then Filename's count: 12 characters + terminator.
        #expect(bytes[52] == 13)
        #expect(Array(bytes[0..<6]) == [0x01, 0x00, 0x01, 0x00, 0x01, 0x38])
    }

    @Test func everyTruncationIsATypedError() {
        let bytes = Self.sample.encoded()
        for length in 0..<bytes.count {
            #expect(throws: PTPIPCodecError.self, "cut at \(length)") { try ObjectInfo(decoding: bytes[..<length]) }
        }
    }

    @Test func leftoverBytesAreRejected() {
        #expect(throws: PTPIPCodecError.layout(.trailingBytes(count: 2, after: "ObjectInfo"))) {
            try ObjectInfo(decoding: Self.sample.encoded() + [0, 0])
        }
    }
}
