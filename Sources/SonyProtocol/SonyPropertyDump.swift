import ByteCoding

/// The data phase of SDIO_GetAllExtDevicePropInfo (0x9209): a u64 count, then that many
/// `SonyPropertyDescriptor`s, filling the data exactly.
///
/// With param 1 = 0 the camera sends every property; with param 1 = 1 only those that changed
/// since the previous call (possibly none: a count of 0).
package struct SonyPropertyDump: Hashable, Sendable {
    /// The descriptors in the order the camera sent them.
    package var descriptors: [SonyPropertyDescriptor]

    /// Wraps descriptors (for encoding, e.g. in the simulator).
    package init(descriptors: [SonyPropertyDescriptor]) {
        self.descriptors = descriptors
    }

    /// Decodes a whole 0x9209 data phase. `protocolVersion` (from SDIO_GetExtDeviceInfo) decides
    /// whether enumerations carry one list (2.00) or two (3.00).
    package init(decoding bytes: [UInt8], protocolVersion: SonyProtocolVersion) throws {
        var reader = ByteReader(bytes, order: .littleEndian)
        let count = try decoding { try reader.readInteger(UInt64.self, field: "propertyCount") }
        // The smallest descriptor is 9 bytes (u8 values, no form): refuse counts the data cannot hold
        // before reserving anything.
        guard count <= UInt64(reader.remaining / Self.minimumDescriptorSize) else {
            throw SonyProtocolError.malformed(
                .invalidValue(
                    field: "propertyCount",
                    reason: "\(count) descriptors do not fit in \(reader.remaining) bytes"))
        }
        var descriptors: [SonyPropertyDescriptor] = []
        descriptors.reserveCapacity(Int(count))
        for _ in 0..<Int(count) {
            descriptors.append(
                try SonyPropertyDescriptor.read(from: &reader, layout: protocolVersion.enumerationLayout))
        }
        try decoding { try reader.expectEnd(after: "\(count) property descriptors") }
        self.descriptors = descriptors
    }

    /// The 0x9209 data phase for these descriptors in `protocolVersion`'s layout.
    package func encoded(protocolVersion: SonyProtocolVersion) -> [UInt8] {
        var writer = ByteWriter(order: .littleEndian)
        writer.writeInteger(UInt64(descriptors.count))
        for descriptor in descriptors {
            descriptor.write(to: &writer, layout: protocolVersion.enumerationLayout)
        }
        return writer.bytes
    }

    /// code (2) + type (2) + getSet (1) + isEnabled (1) + two 1-byte values + form flag (1).
    static let minimumDescriptorSize = 9
}
