import SonyProtocol

extension SonyCamera {
    /// 0xD1B5 Metered Manual Level (reference p. 398, INT16, read only): in M, how far the set exposure is
    /// from what the body's meter calls correct, in EV × 1000 (+ brighter). Read fresh (one full 0x9209 read,
    /// the path every property takes); nil when the body does not report it or the read fails.
    package func meteredManualLevel() async -> Int? {
        _ = try? await refreshProperties(full: true)
        return properties.currentValue(of: SonyPropertyCode(rawValue: 0xD1B5))?.integerValue.map { Int($0) }
    }
}

extension SonyCamera {
    /// Sets 0xD268 Still Image Trans Size (reference p. 491) to Small Size JPEG (`small`) or back to Original,
    /// where the body has it; returns whether it did (false: the body has no such setting). `--auto` probes with
    /// small JPEGs and puts the setting back before the bracket.
    package func setSmallJPEGTransfer(_ small: Bool) async throws -> Bool {
        guard properties.currentValue(of: .stillImageTransSize) != nil else { return false }
        return try await setAndConfirm(
            .stillImageTransSize, to: .uint8(small ? 0x02 : 0x01), during: "Still Image Trans Size (0xD268)")
    }
}
