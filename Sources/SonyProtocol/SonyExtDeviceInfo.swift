import ByteCoding

/// The data phase of SDIO_GetExtDeviceInfo (0x9202): the protocol version, then the property
/// codes and the control codes the camera supports, each a u32-counted array of u16.
package struct SonyExtDeviceInfo: Hashable, Sendable {
    /// The camera's SDIO protocol version (0x00C8 = 2.00, 0x012C = 3.00).
    package var protocolVersion: SonyProtocolVersion
    /// Property codes the camera describes in 0x9209.
    package var propertyCodes: [SonyPropertyCode]
    /// Control codes the camera accepts with 0x9207 (S1 0xD2C1, S2 0xD2C2, ...).
    package var controlCodes: [SonyControlCode]

    /// Creates the info a camera (or the simulator) reports.
    package init(
        protocolVersion: SonyProtocolVersion, propertyCodes: [SonyPropertyCode], controlCodes: [SonyControlCode]
    ) {
        self.protocolVersion = protocolVersion
        self.propertyCodes = propertyCodes
        self.controlCodes = controlCodes
    }

    /// Decodes a whole 0x9202 data phase; an empty one (some bodies while they start) throws
    /// `.malformed(.truncated)`, which callers retry.
    package init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader(bytes, order: .littleEndian)
        let (version, properties, controls) = try decoding {
            (
                try reader.readInteger(UInt16.self, field: "protocolVersion"),
                try reader.readArray(of: UInt16.self, countType: UInt32.self, field: "propertyCodes"),
                try reader.readArray(of: UInt16.self, countType: UInt32.self, field: "controlCodes")
            )
        }
        try decoding { try reader.expectEnd(after: "SDIO_GetExtDeviceInfo") }
        self.init(
            protocolVersion: SonyProtocolVersion(rawValue: version),
            propertyCodes: properties.map(SonyPropertyCode.init(rawValue:)),
            controlCodes: controls.map(SonyControlCode.init(rawValue:)))
    }

    /// The 0x9202 data phase.
    package var encoded: [UInt8] {
        var writer = ByteWriter(order: .littleEndian)
        writer.writeInteger(protocolVersion.rawValue)
        writer.writeInteger(UInt32(propertyCodes.count))
        for code in propertyCodes { writer.writeInteger(code.rawValue) }
        writer.writeInteger(UInt32(controlCodes.count))
        for code in controlCodes { writer.writeInteger(code.rawValue) }
        return writer.bytes
    }
}
