// The JPEG luma decoder under the fuzzer: the input as a whole file, as the entropy-coded data behind valid
// headers (so the Huffman decoding, restart handling and end-of-scan paths see the fuzzer's bytes at once), and
// as the IFDs of a TIFF/ARW around a preview. Whatever decodes must be a well-formed luma image.

import ImageLuminance

extension FuzzTarget {
    /// The most pixels a fuzzed frame may declare: big frames only cost time, the limit itself is unit-tested.
    static let lumaMaximumPixels = 1 << 20

    /// Puts one input through the luma decoder: every input as a whole file (cheap: most fail at the first
    /// marker), and one input in eight, picked by its first byte, also behind JPEG headers and a TIFF header.
    /// Building a scan's Huffman tables for every input would make the whole run about five times slower.
    static func luma(_ bytes: [UInt8]) {
        checkLuma(bytes)
        guard let first = bytes.first, first % 8 == 7 else { return }
        // The first byte also picks the headers: colour 4:2:0 or grey, with or without a restart per MCU.
        checkLuma(lumaHeaders[Int(first / 8) % 4] + bytes.dropFirst() + [0xFF, 0xD9])
        checkLuma([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] + bytes)
    }

    private static func checkLuma(_ bytes: [UInt8]) {
        guard let image = try? LumaReader.read(bytes, maximumPixels: lumaMaximumPixels) else { return }
        precondition(image.samples.count == image.width * image.height, "luma samples do not fill the image")
        precondition(image.samples.allSatisfy { $0 >= 0 && $0 <= 255 }, "a luma sample outside 0...255")
    }

    /// Everything up to the scan data of four small JPEGs from the encoder (32x24: 4:2:0 colour, grey), each
    /// also with a DRI segment (restart every MCU) before its SOS.
    static let lumaHeaders: [[UInt8]] = {
        let pixels = (0..<(32 * 24 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let encoder = JPEGEncoder(quality: 75)
        var headers: [[UInt8]] = []
        for jpeg in [
            encoder.encode(rgb: pixels, width: 32, height: 24),
            encoder.encode(grey: Array(pixels.prefix(32 * 24)), width: 32, height: 24)
        ] {
            // SOS is the last header segment the encoder writes: FF DA, its length, then the data.
            guard let sos = jpeg.indices.dropLast().first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }) else {
                preconditionFailure("the encoder wrote no SOS")
            }
            let end = sos + 2 + (Int(jpeg[sos + 2]) << 8 | Int(jpeg[sos + 3]))
            headers.append(Array(jpeg[..<end]))
            headers.append(Array(jpeg[..<sos]) + [0xFF, 0xDD, 0x00, 0x04, 0x00, 0x01] + Array(jpeg[sos..<end]))
        }
        return headers
    }()
}
