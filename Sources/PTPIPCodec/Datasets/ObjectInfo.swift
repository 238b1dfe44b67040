import ByteCoding

/// The ObjectInfo dataset GetObjectInfo (0x1008) returns (ISO 15740 §5.5.2).
package struct ObjectInfo: Sendable, Equatable, PTPDataset {
    /// The store holding the object.
    package var storageID: UInt32
    /// The object format code (0x3801 EXIF/JPEG, 0xB101 Sony ARW, ...).
    package var objectFormat: UInt16
    /// 0 no protection, 1 read-only.
    package var protectionStatus: UInt16
    /// The object's size in bytes (32 bits in PTP: 0xFFFFFFFF means "4 GiB or more").
    package var objectCompressedSize: UInt32
    /// The thumbnail's format code.
    package var thumbFormat: UInt16
    /// The thumbnail's size in bytes.
    package var thumbCompressedSize: UInt32
    /// Thumbnail width in pixels.
    package var thumbPixWidth: UInt32
    /// Thumbnail height in pixels.
    package var thumbPixHeight: UInt32
    /// Image width in pixels.
    package var imagePixWidth: UInt32
    /// Image height in pixels.
    package var imagePixHeight: UInt32
    /// Bits per pixel.
    package var imageBitDepth: UInt32
    /// The handle of the parent folder (0 for the root).
    package var parentObject: UInt32
    /// The association type (folders).
    package var associationType: UInt16
    /// The association description.
    package var associationDescription: UInt32
    /// The sequence number within a sequence capture.
    package var sequenceNumber: UInt32
    /// The file name, e.g. "DSC00042.JPG".
    package var filename: String
    /// Capture date as a PTP DateTime string ("YYYYMMDDThhmmss[.s]"), or empty.
    package var captureDate: String
    /// Modification date as a PTP DateTime string, or empty.
    package var modificationDate: String
    /// Keywords, or empty.
    package var keywords: String

    /// Creates a dataset; fields a camera rarely fills default to zero or empty.
    package init(
        storageID: UInt32 = 0, objectFormat: UInt16, protectionStatus: UInt16 = 0, objectCompressedSize: UInt32,
        thumbFormat: UInt16 = 0, thumbCompressedSize: UInt32 = 0, thumbPixWidth: UInt32 = 0, thumbPixHeight: UInt32 = 0,
        imagePixWidth: UInt32 = 0, imagePixHeight: UInt32 = 0, imageBitDepth: UInt32 = 0, parentObject: UInt32 = 0,
        associationType: UInt16 = 0, associationDescription: UInt32 = 0, sequenceNumber: UInt32 = 0,
        filename: String, captureDate: String = "", modificationDate: String = "", keywords: String = ""
    ) {
        self.storageID = storageID
        self.objectFormat = objectFormat
        self.protectionStatus = protectionStatus
        self.objectCompressedSize = objectCompressedSize
        self.thumbFormat = thumbFormat
        self.thumbCompressedSize = thumbCompressedSize
        self.thumbPixWidth = thumbPixWidth
        self.thumbPixHeight = thumbPixHeight
        self.imagePixWidth = imagePixWidth
        self.imagePixHeight = imagePixHeight
        self.imageBitDepth = imageBitDepth
        self.parentObject = parentObject
        self.associationType = associationType
        self.associationDescription = associationDescription
        self.sequenceNumber = sequenceNumber
        self.filename = filename
        self.captureDate = captureDate
        self.modificationDate = modificationDate
        self.keywords = keywords
    }

    /// Its name in an error about leftover bytes (`init(decoding:)` decodes a whole GetObjectInfo data phase).
    package static let datasetName = "ObjectInfo"

    /// Reads the dataset from `reader`, leaving any bytes after it.
    package init(reading reader: inout ByteReader) throws {
        storageID = try reader.readInteger(UInt32.self, field: "StorageID")
        objectFormat = try reader.readInteger(UInt16.self, field: "ObjectFormat")
        protectionStatus = try reader.readInteger(UInt16.self, field: "ProtectionStatus")
        objectCompressedSize = try reader.readInteger(UInt32.self, field: "ObjectCompressedSize")
        thumbFormat = try reader.readInteger(UInt16.self, field: "ThumbFormat")
        thumbCompressedSize = try reader.readInteger(UInt32.self, field: "ThumbCompressedSize")
        thumbPixWidth = try reader.readInteger(UInt32.self, field: "ThumbPixWidth")
        thumbPixHeight = try reader.readInteger(UInt32.self, field: "ThumbPixHeight")
        imagePixWidth = try reader.readInteger(UInt32.self, field: "ImagePixWidth")
        imagePixHeight = try reader.readInteger(UInt32.self, field: "ImagePixHeight")
        imageBitDepth = try reader.readInteger(UInt32.self, field: "ImageBitDepth")
        parentObject = try reader.readInteger(UInt32.self, field: "ParentObject")
        associationType = try reader.readInteger(UInt16.self, field: "AssociationType")
        associationDescription = try reader.readInteger(UInt32.self, field: "AssociationDesc")
        sequenceNumber = try reader.readInteger(UInt32.self, field: "SequenceNumber")
        filename = try reader.readPTPString(field: "Filename")
        captureDate = try reader.readPTPString(field: "CaptureDate")
        modificationDate = try reader.readPTPString(field: "ModificationDate")
        keywords = try reader.readPTPString(field: "Keywords")
    }

    /// Appends the dataset to `writer` (the decoder's twin).
    package func encode(into writer: inout ByteWriter) {
        writer.writeInteger(storageID)
        writer.writeInteger(objectFormat)
        writer.writeInteger(protectionStatus)
        writer.writeInteger(objectCompressedSize)
        writer.writeInteger(thumbFormat)
        writer.writeInteger(thumbCompressedSize)
        writer.writeInteger(thumbPixWidth)
        writer.writeInteger(thumbPixHeight)
        writer.writeInteger(imagePixWidth)
        writer.writeInteger(imagePixHeight)
        writer.writeInteger(imageBitDepth)
        writer.writeInteger(parentObject)
        writer.writeInteger(associationType)
        writer.writeInteger(associationDescription)
        writer.writeInteger(sequenceNumber)
        writer.writePTPString(filename)
        writer.writePTPString(captureDate)
        writer.writePTPString(modificationDate)
        writer.writePTPString(keywords)
    }

    /// The dataset as bytes (a GetObjectInfo data phase).
    package func encoded() -> [UInt8] {
        var writer = ByteWriter()
        encode(into: &writer)
        return writer.bytes
    }
}
