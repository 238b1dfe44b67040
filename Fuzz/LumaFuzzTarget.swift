// libFuzzer entry point for the JPEG luma decoder (a target of its own, so its slower inputs do not slow the
// codec's smoke run): each input as a whole file, as the entropy-coded data behind valid headers (so the Huffman
// decoding, restart handling and end-of-scan paths see the fuzzer's bytes at once), and as the IFDs of a
// TIFF/ARW around a preview. Whatever decodes must be a well-formed luma image; any trap is a bug. Built by
// Fuzz/run.sh --target luma together with the ByteCoding, ImageMetadata, Exposure and ImageLuminance modules.

import ImageLuminance

/// libFuzzer calls this once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    LumaFuzzTarget.run(bytes)
    return 0
}

/// What each input is put through.
enum LumaFuzzTarget {
    /// The most pixels a fuzzed frame may declare: big frames only cost time, the limit itself is unit-tested.
    static let maximumPixels = 1 << 20

    /// Puts one input through the luma decoder three ways; the first byte picks the headers for the second.
    static func run(_ bytes: [UInt8]) {
        check(bytes)
        let variant = Int(bytes.first ?? 0) % headers.count
        check(headers[variant] + bytes.dropFirst(min(1, bytes.count)) + [0xFF, 0xD9])
        check([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] + bytes)
    }

    private static func check(_ bytes: [UInt8]) {
        guard let image = try? LumaReader.read(bytes, maximumPixels: maximumPixels) else { return }
        precondition(image.samples.count == image.width * image.height, "luma samples do not fill the image")
        precondition(image.samples.allSatisfy { $0 >= 0 && $0 <= 255 }, "a luma sample outside 0...255")
    }

    /// Everything up to the scan data of two small JPEGs from the encoder (32x24: 4:2:0 colour, grey), each
    /// also with a DRI segment (restart every MCU) before its SOS.
    static let headers: [[UInt8]] = {
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
