import TestSupport
import Testing

@testable import CameraSimulator

@Suite("Generated JPEGs")
struct GeneratedImageTests {
    /// Walks the JPEG marker segments up to the scan; returns the markers seen, or nil when the layout is broken.
    static func markers(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var markers: [UInt8] = [0xD8]
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            markers.append(marker)
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return nil }
            offset += 2 + length
            if marker == 0xDA { break } // scan data follows
        }
        guard Array(bytes.suffix(2)) == [0xFF, 0xD9] else { return nil }
        return markers
    }

    @Test(arguments: [
        0, 1, 200, 301, 302, 303, 304, 305, 65_537 + 300, 65_537 + 301, 65_537 * 3 + 302, 200_000, 1_000_003
    ])
    func everySizeIsExactAndAValidSegmentLayout(extra: Int) throws {
        let comment = "hdrshoot simulator frame 1 shutter 1/250"
        let size = GeneratedImage.minimumSize(comment: comment) + extra
        let image = GeneratedImage(size: size, fileName: "DSC00001_1-250s.JPG", comment: comment)
        let bytes = image.allBytes
        #expect(bytes.count == size)
        let markers = try #require(Self.markers(bytes))
        #expect(markers.first == 0xD8 && markers.contains(0xC0) && markers.last == 0xDA)
    }

    @Test func slicesConcatenateToTheWholeImage() {
        let image = GeneratedImage(size: 400_000, fileName: "x.JPG", comment: "slices")
        let whole = image.allBytes
        var joined: [UInt8] = []
        var offset = 0
        for step in [1, 7, 65_536, 100_000, 3, 234_393] {
            joined += image.bytes(in: offset..<(offset + step))
            offset += step
        }
        joined += image.bytes(in: offset..<image.size + 10)
        #expect(joined == whole)
    }

    @Test func smallRequestsGrowToTheMinimum() {
        let image = GeneratedImage(size: 10, fileName: "x.JPG", comment: "tiny")
        #expect(image.size == GeneratedImage.minimumSize(comment: "tiny"))
        #expect(Self.markers(image.allBytes) != nil)
    }

    @Test func a25MegabyteImageIsProducedChunkByChunkQuickly() {
        let image = GeneratedImage(size: 25_000_000, fileName: "big.JPG", comment: "big")
        let clock = ContinuousClock()
        let start = clock.now
        var total = 0
        var offset = 0
        while offset < image.size {
            total += image.bytes(in: offset..<(offset + (1 << 20))).count
            offset += 1 << 20
        }
        #expect(total == 25_000_000)
        // Not a speed target (hdrshoot-bench measures that): only that a 25 MB image is not built all at once and
        // slowly; the bound separates "returned" from "hung" on a loaded host.
        #expect(clock.now - start < TimingBounds.notAHang)
    }
}
