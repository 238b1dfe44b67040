/// A small baseline JPEG encoder (pure): grey, or YCbCr 4:2:0 from RGB, with the standard tables of T.81
/// Annex K scaled to one fixed quality, no restart markers, no optimised Huffman tables.
///
/// It exists to render simulated scenes into real JPEGs (see `SceneRenderer`) that any decoder reads, libjpeg's
/// djpeg included, and that the DC-only decoder reads back. Speed is not a goal: a float DCT per block.
package struct JPEGEncoder: Sendable {
    /// The quality, 1...100, as libjpeg's `-quality` scales the standard tables.
    package let quality: Int
    /// Luma quantisation table, natural order.
    let luminanceTable: [Int]
    /// Chroma quantisation table, natural order.
    let chrominanceTable: [Int]

    /// Creates an encoder for `quality` (clamped to 1...100).
    package init(quality: Int = 90) {
        self.quality = min(100, max(1, quality))
        luminanceTable = JPEGStandardTables.scaled(JPEGStandardTables.luminanceQuantisation, quality: self.quality)
        chrominanceTable = JPEGStandardTables.scaled(JPEGStandardTables.chrominanceQuantisation, quality: self.quality)
    }

    /// Encodes a grey image: `samples` holds `width * height` levels, row after row.
    package func encode(grey samples: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(samples.count == width * height, "samples do not fill the image")
        precondition((1...65_535).contains(width) && (1...65_535).contains(height), "a JPEG is 1...65535 wide and high")
        var writer = JPEGBitWriter()
        writeHeaders(&writer, width: width, height: height, colour: false)
        let luma = BlockCoder(
            quantisation: luminanceTable, dc: JPEGStandardTables.dcLuminance, ac: JPEGStandardTables.acLuminance)
        var prediction = 0
        var block = [Float](repeating: 0, count: 64)
        for blockY in 0..<((height + 7) / 8) {
            for blockX in 0..<((width + 7) / 8) {
                for y in 0..<8 {
                    let row = min(height - 1, 8 * blockY + y) * width
                    for x in 0..<8 { block[8 * y + x] = Float(samples[row + min(width - 1, 8 * blockX + x)]) - 128 }
                }
                luma.encode(block, prediction: &prediction, into: &writer)
            }
        }
        return finish(&writer)
    }

    /// Encodes an RGB image as YCbCr 4:2:0: `rgb` holds `width * height * 3` bytes, R G B per pixel.
    package func encode(rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(rgb.count == width * height * 3, "samples do not fill the image")
        precondition((1...65_535).contains(width) && (1...65_535).contains(height), "a JPEG is 1...65535 wide and high")
        var writer = JPEGBitWriter()
        writeHeaders(&writer, width: width, height: height, colour: true)
        let luma = BlockCoder(
            quantisation: luminanceTable, dc: JPEGStandardTables.dcLuminance, ac: JPEGStandardTables.acLuminance)
        let chroma = BlockCoder(
            quantisation: chrominanceTable, dc: JPEGStandardTables.dcChrominance, ac: JPEGStandardTables.acChrominance)
        var predictions = [0, 0, 0]
        var y = [Float](repeating: 0, count: 256)
        var cb = [Float](repeating: 0, count: 256)
        var cr = [Float](repeating: 0, count: 256)
        var block = [Float](repeating: 0, count: 64)
        for mcuY in 0..<((height + 15) / 16) {
            for mcuX in 0..<((width + 15) / 16) {
                // JFIF colour conversion (T.871), level-shifted by 128; edge pixels repeat into the padding.
                for row in 0..<16 {
                    let line = min(height - 1, 16 * mcuY + row) * width
                    for column in 0..<16 {
                        let pixel = 3 * (line + min(width - 1, 16 * mcuX + column))
                        let (red, green, blue) = (Float(rgb[pixel]), Float(rgb[pixel + 1]), Float(rgb[pixel + 2]))
                        y[16 * row + column] = 0.299 * red + 0.587 * green + 0.114 * blue - 128
                        cb[16 * row + column] = -0.168_736 * red - 0.331_264 * green + 0.5 * blue
                        cr[16 * row + column] = 0.5 * red - 0.418_688 * green - 0.081_312 * blue
                    }
                }
                for quadrant in 0..<4 {
                    let (originX, originY) = (8 * (quadrant % 2), 8 * (quadrant / 2))
                    for row in 0..<8 {
                        for column in 0..<8 { block[8 * row + column] = y[16 * (originY + row) + originX + column] }
                    }
                    luma.encode(block, prediction: &predictions[0], into: &writer)
                }
                for (index, plane) in [cb, cr].enumerated() {
                    // Each chroma sample is the mean of a 2x2 square (the "h2v2" downsampling).
                    for row in 0..<8 {
                        for column in 0..<8 {
                            let top = 32 * row + 2 * column
                            block[8 * row + column] =
                                (plane[top] + plane[top + 1] + plane[top + 16] + plane[top + 17]) / 4
                        }
                    }
                    chroma.encode(block, prediction: &predictions[1 + index], into: &writer)
                }
            }
        }
        return finish(&writer)
    }

    // MARK: - Headers

    private func writeHeaders(_ writer: inout JPEGBitWriter, width: Int, height: Int, colour: Bool) {
        writer.bytes += [0xFF, 0xD8]
        // APP0 JFIF 1.01, no density, no thumbnail.
        writer.bytes += [0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01]
        writer.bytes += [0x00, 0x00]
        let tables = colour ? [luminanceTable, chrominanceTable] : [luminanceTable]
        writer.bytes += [0xFF, 0xDB] + bigEndian(2 + 65 * tables.count)
        for (index, table) in tables.enumerated() {
            writer.bytes.append(UInt8(index))
            writer.bytes += JPEGStandardTables.zigzag.map { UInt8(table[$0]) }
        }
        let components = colour ? 3 : 1
        writer.bytes += [0xFF, 0xC0] + bigEndian(8 + 3 * components) + [8] + bigEndian(height) + bigEndian(width)
        writer.bytes.append(UInt8(components))
        writer.bytes += colour ? [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1] : [1, 0x11, 0]
        var huffman: [(UInt8, JPEGStandardTables.HuffmanSpecification)] = [
            (0x00, JPEGStandardTables.dcLuminance), (0x10, JPEGStandardTables.acLuminance)
        ]
        if colour { huffman += [(0x01, JPEGStandardTables.dcChrominance), (0x11, JPEGStandardTables.acChrominance)] }
        for (header, table) in huffman {
            writer.bytes += [0xFF, 0xC4] + bigEndian(2 + 1 + 16 + table.symbols.count) + [header]
            writer.bytes += table.counts + table.symbols
        }
        writer.bytes += [0xFF, 0xDA] + bigEndian(6 + 2 * components) + [UInt8(components)]
        writer.bytes += colour ? [1, 0x00, 2, 0x11, 3, 0x11] : [1, 0x00]
        writer.bytes += [0, 63, 0]
    }

    private func finish(_ writer: inout JPEGBitWriter) -> [UInt8] {
        writer.flush()
        writer.bytes += [0xFF, 0xD9]
        return writer.bytes
    }

    private func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
