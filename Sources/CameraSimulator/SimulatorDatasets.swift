import ByteCoding
import Foundation
import PTPIPCodec
import SonyProtocol

/// The data phases the simulated body serves: built from the default body, or recorded bytes replayed.
///
/// Replayed bytes go out verbatim; only the current values of fixed-width properties that changed
/// since start-up (the shutter speed a client set, 0xD215 after a capture) are patched in place.
package struct SimulatorDatasets: Sendable {
    /// The protocol version the body speaks (from the replayed 0x9202, else the configuration).
    package let protocolVersion: SonyProtocolVersion
    /// The GetDeviceInfo (0x1001) data phase.
    package let deviceInfo: [UInt8]
    /// The SDIO_GetExtDeviceInfo (0x9202) data phase.
    package let extDeviceInfo: [UInt8]
    /// The property table at power-on, in 0x9209 order.
    package let initialProperties: [SonyPropertyDescriptor]
    /// A recorded 0x9209 data phase and where each fixed-width current value sits in it.
    private let replayedDump: ReplayedDump?

    private struct ReplayedDump: Sendable {
        var bytes: [UInt8]
        var currentValueOffsets: [SonyPropertyCode: Int]
    }

    /// The model name the built-in body reports.
    package static let modelName = "ILCE-7M3"

    /// Operations the built-in body lists in DeviceInfo (it answers OperationNotSupported to others).
    package static let operations: [OperationCode] = [
        .getDeviceInfo, .openSession, .closeSession, .getObjectInfo, .getObject, .getPartialObject,
        .sdioConnect, .sdioGetExtDeviceInfo, .sdioSetExtDevicePropValue, .sdioControlDevice,
        .sdioGetAllExtDevicePropInfo, SimulatorOperation.getPartialLargeObject
    ]

    /// Builds the datasets for `configuration`, reading its replay files.
    package init(configuration: SimulatorConfiguration) throws(SimulatorError) {
        let replayedExt = try configuration.replayExtDeviceInfoPath.map { path throws(SimulatorError) in
            (path, try Self.read(path))
        }
        var version = SonyProtocolVersion(rawValue: configuration.protocolVersion)
        if let (path, bytes) = replayedExt {
            do {
                version = try SonyExtDeviceInfo(decoding: bytes).protocolVersion
            } catch {
                throw .unreadableReplay(path: path, reason: "not a SDIO_GetExtDeviceInfo data phase (\(error))")
            }
        }
        protocolVersion = version

        if let path = configuration.replayPropertiesPath {
            let bytes = try Self.read(path)
            do {
                let (descriptors, offsets) = try Self.locateCurrentValues(in: bytes, version: version)
                initialProperties = descriptors
                replayedDump = ReplayedDump(bytes: bytes, currentValueOffsets: offsets)
            } catch {
                throw .unreadableReplay(path: path, reason: "not a SDIO_GetAllExtDevicePropInfo data phase (\(error))")
            }
        } else {
            initialProperties = DefaultBody.properties(configuration: configuration)
            replayedDump = nil
        }

        extDeviceInfo =
            replayedExt?.1
            ?? SonyExtDeviceInfo(
                protocolVersion: version, propertyCodes: initialProperties.map(\.code),
                controlCodes: DefaultBody.controlCodes
            ).encoded

        if let path = configuration.replayDeviceInfoPath {
            deviceInfo = try Self.read(path)
        } else {
            deviceInfo = DeviceInfo(
                vendorExtensionID: DeviceInfo.sonyVendorExtensionID, vendorExtensionVersion: 100,
                vendorExtensionDescription: "Sony PTP Extensions", operationsSupported: Self.operations,
                eventsSupported: [.sonyObjectAdded, .sonyObjectRemoved, .sonyDevicePropChanged, .capturedEvent],
                devicePropertiesSupported: initialProperties.map(\.code.rawValue),
                captureFormats: [],
                imageFormats: configuration.fileFormat.hasRaw
                    ? [GeneratedImageFormat.jpeg.objectFormat, GeneratedImageFormat.arw.objectFormat]
                    : [GeneratedImageFormat.jpeg.objectFormat],
                manufacturer: "Sony Corporation", model: Self.modelName, deviceVersion: "3.01",
                serialNumber: "00000000000000003282933004190000"
            ).encoded()
        }
    }

    /// The 0x9209 data phase for `properties` (the live table, or only its changed entries).
    ///
    /// A full answer from a replayed body is the recording with changed fixed-width values patched in;
    /// change-only answers and the built-in body are encoded with SonyProtocol's descriptor codec.
    /// `version` is the layout negotiated with the host (see `SimulatedCamera.negotiatedVersion`); a
    /// recording is only replayed verbatim in its own layout.
    package func propertyDump(
        _ properties: [SonyPropertyDescriptor], complete: Bool, version: SonyProtocolVersion
    ) -> [UInt8] {
        guard complete, version.enumerationLayout == protocolVersion.enumerationLayout,
            var dump = replayedDump?.bytes, let offsets = replayedDump?.currentValueOffsets
        else {
            return SonyPropertyDump(descriptors: properties).encoded(protocolVersion: version)
        }
        for property in properties {
            guard let offset = offsets[property.code] else { continue }
            let bytes = property.currentValue.encoded
            dump.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        }
        return dump
    }

    /// The GetObjectInfo data phase for a buffered file: its format (JPEG 0x3801, ARW 0xB101) and size, and
    /// `sequenceNumber`, shared by the JPEG and the ARW of one capture (reference p. 47).
    package func objectInfo(for image: GeneratedImage, sequenceNumber: UInt32 = 0) -> [UInt8] {
        ObjectInfo(
            objectFormat: image.format.objectFormat, objectCompressedSize: UInt32(clamping: image.size),
            imagePixWidth: 6000, imagePixHeight: 4000, imageBitDepth: image.format == .arw ? 14 : 24,
            sequenceNumber: sequenceNumber, filename: image.fileName, captureDate: "20260101T120000",
            modificationDate: "20260101T120000"
        ).encoded()
    }

    private static func read(_ path: String) throws(SimulatorError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableReplay(path: path, reason: "cannot read the file")
        }
        return [UInt8](data)
    }

    /// Decodes a recorded dump descriptor by descriptor, noting where each fixed-width current value starts.
    private static func locateCurrentValues(
        in bytes: [UInt8], version: SonyProtocolVersion
    ) throws -> ([SonyPropertyDescriptor], [SonyPropertyCode: Int]) {
        // Decoding the whole dump first checks every byte (count, lengths, no trailing bytes).
        let descriptors = try SonyPropertyDump(decoding: bytes, protocolVersion: version).descriptors
        var reader = ByteReader(bytes, order: .littleEndian)
        _ = try reader.readInteger(UInt64.self, field: "propertyCount")
        var offsets: [SonyPropertyCode: Int] = [:]
        for _ in descriptors {
            let start = reader.offset
            let descriptor = try SonyPropertyDescriptor.read(from: &reader, layout: version.enumerationLayout)
            if let size = descriptor.dataType.scalarSize {
                // code, dataType, getSet, isEnabled, then the factory value, then the current value.
                offsets[descriptor.code] = start + 2 + 2 + 1 + 1 + size
            }
        }
        return (descriptors, offsets)
    }
}
