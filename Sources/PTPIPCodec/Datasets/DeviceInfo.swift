import ByteCoding

/// The DeviceInfo dataset GetDeviceInfo (0x1001) returns (ISO 15740 §5.5.1).
package struct DeviceInfo: Sendable, Equatable, PTPDataset {
    /// PTP version times 100 (100 = 1.00).
    package var standardVersion: UInt16
    /// Whose extensions the camera speaks: 0x11 for Sony.
    package var vendorExtensionID: UInt32
    /// The version of those extensions times 100.
    package var vendorExtensionVersion: UInt16
    /// A free-text description of the extensions ("Sony PTP Extensions").
    package var vendorExtensionDescription: String
    /// The functional mode (0 standard).
    package var functionalMode: UInt16
    /// The operations the camera supports.
    package var operationsSupported: [OperationCode]
    /// The events the camera can send.
    package var eventsSupported: [EventCode]
    /// The standard device properties it supports.
    package var devicePropertiesSupported: [UInt16]
    /// Object formats it can capture.
    package var captureFormats: [UInt16]
    /// Object formats it can store or send.
    package var imageFormats: [UInt16]
    /// The maker ("Sony Corporation").
    package var manufacturer: String
    /// The model ("DSC-RX100M7", "ILCE-9").
    package var model: String
    /// The firmware version ("1.00").
    package var deviceVersion: String
    /// The serial number.
    package var serialNumber: String

    /// Creates a dataset.
    package init(
        standardVersion: UInt16 = 100, vendorExtensionID: UInt32, vendorExtensionVersion: UInt16,
        vendorExtensionDescription: String, functionalMode: UInt16 = 0, operationsSupported: [OperationCode],
        eventsSupported: [EventCode], devicePropertiesSupported: [UInt16], captureFormats: [UInt16],
        imageFormats: [UInt16], manufacturer: String, model: String, deviceVersion: String, serialNumber: String
    ) {
        self.standardVersion = standardVersion
        self.vendorExtensionID = vendorExtensionID
        self.vendorExtensionVersion = vendorExtensionVersion
        self.vendorExtensionDescription = vendorExtensionDescription
        self.functionalMode = functionalMode
        self.operationsSupported = operationsSupported
        self.eventsSupported = eventsSupported
        self.devicePropertiesSupported = devicePropertiesSupported
        self.captureFormats = captureFormats
        self.imageFormats = imageFormats
        self.manufacturer = manufacturer
        self.model = model
        self.deviceVersion = deviceVersion
        self.serialNumber = serialNumber
    }

    /// Its name in an error about leftover bytes (`init(decoding:)` decodes a whole GetDeviceInfo data phase).
    package static let datasetName = "DeviceInfo"

    /// Reads the dataset from `reader`, leaving any bytes after it.
    package init(reading reader: inout ByteReader) throws {
        standardVersion = try reader.readInteger(UInt16.self, field: "StandardVersion")
        vendorExtensionID = try reader.readInteger(UInt32.self, field: "VendorExtensionID")
        vendorExtensionVersion = try reader.readInteger(UInt16.self, field: "VendorExtensionVersion")
        vendorExtensionDescription = try reader.readPTPString(field: "VendorExtensionDesc")
        functionalMode = try reader.readInteger(UInt16.self, field: "FunctionalMode")
        operationsSupported = try reader.readCodeArray(field: "OperationsSupported").map(OperationCode.init(rawValue:))
        eventsSupported = try reader.readCodeArray(field: "EventsSupported").map(EventCode.init(rawValue:))
        devicePropertiesSupported = try reader.readCodeArray(field: "DevicePropertiesSupported")
        captureFormats = try reader.readCodeArray(field: "CaptureFormats")
        imageFormats = try reader.readCodeArray(field: "ImageFormats")
        manufacturer = try reader.readPTPString(field: "Manufacturer")
        model = try reader.readPTPString(field: "Model")
        deviceVersion = try reader.readPTPString(field: "DeviceVersion")
        serialNumber = try reader.readPTPString(field: "SerialNumber")
    }

    /// Appends the dataset to `writer` (the decoder's twin).
    package func encode(into writer: inout ByteWriter) {
        writer.writeInteger(standardVersion)
        writer.writeInteger(vendorExtensionID)
        writer.writeInteger(vendorExtensionVersion)
        writer.writePTPString(vendorExtensionDescription)
        writer.writeInteger(functionalMode)
        writer.writeCodeArray(operationsSupported.map(\.rawValue))
        writer.writeCodeArray(eventsSupported.map(\.rawValue))
        writer.writeCodeArray(devicePropertiesSupported)
        writer.writeCodeArray(captureFormats)
        writer.writeCodeArray(imageFormats)
        writer.writePTPString(manufacturer)
        writer.writePTPString(model)
        writer.writePTPString(deviceVersion)
        writer.writePTPString(serialNumber)
    }

    /// The dataset as bytes (a GetDeviceInfo data phase).
    package func encoded() -> [UInt8] {
        var writer = ByteWriter()
        encode(into: &writer)
        return writer.bytes
    }

    /// Whether the camera lists `operation` among its supported operations.
    package func supports(_ operation: OperationCode) -> Bool { operationsSupported.contains(operation) }
}
