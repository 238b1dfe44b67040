/// The luma plane being filled: one sample per 8x8 luma block, set by the scans that code luma.
struct LumaPlane {
    /// Blocks across the luma component.
    let width: Int
    /// Block rows of the luma component.
    let height: Int
    /// `width * height` block means, 0...255.
    var samples: [Float]
    /// Whether a scan has coded the luma component.
    var isDecoded = false
}

/// Decodes one scan's entropy-coded data: every block of every component in it is Huffman-decoded (the AC
/// coefficients only to be skipped), and the DC of each luma block becomes that block's mean.
///
/// The tables of the scan's components are laid out flat (three sets of look-up entries,
/// 18 maximum codes, 18 offsets and 256 symbols per table) so the hot loop reads them through one buffer pointer
/// each instead of retaining arrays per block.
struct ScanDecoder {
    /// Every table of the scan, flat: `HuffmanTables.stride` values per table.
    private var flat: [Int32] = []

    /// Lays out the DC table (at index 2i) and the AC table (2i + 1) of each of the scan's components.
    init(_ scan: JPEGScanHeader) {
        for component in scan.components {
            for (table, isAC) in [(component.dcTable, false), (component.acTable, true)] {
                flat += table.lookup.map { Int32($0) }
                flat += table.skip.map { Int32($0) }
                flat += table.maxCode
                flat += table.symbolOffset
                flat += table.symbols.map { Int32($0) } + [Int32](repeating: 0, count: 256 - table.symbols.count)
                flat.append(Int32(table.symbols.count))
                // Only AC coefficients are passed over in pairs; a DC table's pair entries are never read.
                flat += isAC ? HuffmanTables.pairs(from: table.skip) : HuffmanTables.noPairs
            }
        }
    }

    /// Where each block of an MCU comes from: the scan component (its tables and DC predictor), and its place
    /// in the MCU when it is a luma block (nil for chroma).
    private struct BlockSlot {
        let component: Int
        let lumaOffset: (x: Int, y: Int)?
    }

    /// Decodes the scan whose data starts at `data` (file offset `base`) into `luma`, and returns how many bytes
    /// of `data` it used: the offset of the marker that ends it.
    func decode(
        _ scan: JPEGScanHeader, frame: JPEGFrame, restartInterval: Int, lumaQuantiser: Int?,
        data: ArraySlice<UInt8>, base: Int, luma: inout LumaPlane
    ) throws(LuminanceError) -> Int {
        // Blocks of an MCU, in coding order (T.81 A.2): a single-component scan has one block per MCU and
        // covers only the component's own blocks; an interleaved scan has H x V blocks of each component.
        var slots: [BlockSlot] = []
        let lumaScale: (x: Int, y: Int)
        let grid: (across: Int, down: Int)
        if scan.components.count == 1 {
            let component = frame.components[scan.components[0].frameIndex]
            grid = (frame.blocksAcross(component), frame.blocksDown(component))
            slots.append(BlockSlot(component: 0, lumaOffset: scan.components[0].frameIndex == 0 ? (0, 0) : nil))
            lumaScale = (1, 1)
        } else {
            grid = (frame.mcusAcross, frame.mcusDown)
            for (index, scanComponent) in scan.components.enumerated() {
                let component = frame.components[scanComponent.frameIndex]
                for y in 0..<component.vertical {
                    for x in 0..<component.horizontal {
                        slots.append(
                            BlockSlot(component: index, lumaOffset: scanComponent.frameIndex == 0 ? (x, y) : nil))
                    }
                }
            }
            lumaScale = (frame.components[0].horizontal, frame.components[0].vertical)
        }
        let codesLuma = slots.contains { $0.lumaOffset != nil }
        guard !codesLuma || lumaQuantiser != nil else {
            throw .malformed(
                field: "scan header", offset: base,
                reason: "luma uses quantisation table \(frame.components[0].quantisationTable), which no DQT defined")
        }
        // The block mean is DC x quantiser / 8 + 128 (the DCT's DC basis is 1/8 of the sum; T.81 A.3.3).
        let scale = Float(lumaQuantiser ?? 0) / 8
        var predictions = [Int](repeating: 0, count: scan.components.count)
        let (lumaWidth, lumaHeight) = (luma.width, luma.height)
        // Raw buffers for the hot loop: the bytes, the tables, the predictors and the samples (every index into
        // the last two is a slot's component or a block position checked against the plane's size).
        let result: Result<Int, LuminanceError> = data.withUnsafeBufferPointer { bytes in
            flat.withUnsafeBufferPointer { storage in
                predictions.withUnsafeMutableBufferPointer { predictions in
                    luma.samples.withUnsafeMutableBufferPointer { samples in
                        var reader = EntropyReader(bytes)
                        let tables = HuffmanTables(storage: storage)
                        var untilRestart = restartInterval
                        var nextRestart = 0
                        do throws(LuminanceError) {
                            for mcuY in 0..<grid.down {
                                for mcuX in 0..<grid.across {
                                    if restartInterval > 0 {
                                        if untilRestart == 0 {
                                            try reader.restart(expected: nextRestart, base: base)
                                            nextRestart = (nextRestart + 1) & 7
                                            untilRestart = restartInterval
                                            for index in predictions.indices { predictions[index] = 0 }
                                        }
                                        untilRestart -= 1
                                    }
                                    for slot in slots {
                                        let difference = try tables.decodeBlock(
                                            &reader, table: 2 * slot.component, base: base)
                                        predictions[slot.component] &+= difference
                                        guard let offset = slot.lumaOffset else { continue }
                                        let x = mcuX * lumaScale.x + offset.x
                                        let y = mcuY * lumaScale.y + offset.y
                                        guard x < lumaWidth, y < lumaHeight else { continue } // padding block
                                        let mean = Float(predictions[slot.component]) * scale + 128
                                        samples[y * lumaWidth + x] = min(max(mean, 0), 255)
                                    }
                                    if reader.ranPastData {
                                        throw Self.ranPast(
                                            reader, mcu: mcuY * grid.across + mcuX, grid: grid, base: base)
                                    }
                                }
                            }
                        } catch {
                            return .failure(error)
                        }
                        return .success(reader.position)
                    }
                }
            }
        }
        if codesLuma { luma.isDecoded = true }
        return try result.get()
    }

    /// The error for a scan whose data stopped inside MCU `mcu`: cut short, or a marker too early.
    private static func ranPast(
        _ reader: EntropyReader, mcu: Int, grid: (across: Int, down: Int), base: Int
    ) -> LuminanceError {
        if reader.reachedEnd {
            return .truncated(field: "scan data (MCU \(mcu))", offset: base + reader.bytes.count)
        }
        return .malformed(
            field: "scan data", offset: base + reader.position,
            reason: "a marker comes before MCU \(mcu) of \(grid.across * grid.down) is complete")
    }
}
