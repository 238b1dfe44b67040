import PTPIPCodec
import SonyProtocol

/// What each capture writes, as the body's quality setting says (`--format`).
package enum SimulatedFileFormat: String, Sendable, Equatable, CaseIterable {
    /// One JPEG per capture.
    case jpeg
    /// A JPEG, then an ARW with the same file number (Camera Control PTP 3 Reference, p. 47: JPEG first).
    case rawAndJPEG = "raw+jpeg"
    /// One ARW per capture.
    case raw

    /// The 0x5004 CompressionSetting value the built-in body shows for it (libgphoto2's Sony table):
    /// 0x03 Fine, 0x10 RAW, 0x13 RAW+JPEG (Fine).
    var compressionSetting: UInt8 {
        switch self {
        case .jpeg: return 0x03
        case .rawAndJPEG: return 0x13
        case .raw: return 0x10
        }
    }

    /// Whether the capture writes a RAW file.
    var hasRaw: Bool { self != .jpeg }
}

/// Where stills go (`--save-to`), shown in 0xD222 Still Image Save Destination (reference p. 459).
package enum SimulatedSaveDestination: String, Sendable, Equatable, CaseIterable {
    /// To the host only: files wait in the buffer as 0xFFFFC001.
    case host
    /// To the memory card only: nothing waits in the buffer.
    case camera
    /// To the host and the card.
    case both

    /// The 0xD222 value: 0x0001 Host Device, 0x0010 Camera, 0x0011 Host Device & Camera (p. 459).
    var sonyValue: SonySaveDestination {
        switch self {
        case .host: return .host
        case .camera: return .camera
        case .both: return .hostAndCamera
        }
    }
}

/// The transfer settings the built-in body offers, and their values (reference pp. 491-492).
enum TransferProperty {
    /// Still Image Trans Size = 0xD268, UINT8 enumeration, Get/Set (p. 491).
    static let stillImageTransSize = SonyPropertyCode(rawValue: 0xD268)
    /// RAW+J PC Save Image = 0xD269, UINT8 enumeration, Get/Set (pp. 491-492).
    static let rawJPEGSaveImage = SonyPropertyCode(rawValue: 0xD269)
    /// 0xD268 value 0x01 Original: the file as shot.
    static let original: UInt8 = 0x01
    /// 0xD268 value 0x02 Small Size JPEG: a small JPEG only (no RAW goes to the host).
    static let smallSizeJPEG: UInt8 = 0x02
    /// 0xD269 value 0x01 RAW & JPEG.
    static let rawAndJPEG: UInt8 = 0x01
    /// 0xD269 value 0x02 JPEG Only.
    static let jpegOnly: UInt8 = 0x02
    /// 0xD269 value 0x03 RAW Only.
    static let rawOnly: UInt8 = 0x03
}

/// Operations the simulator answers that SonyProtocol does not name (kept here so the client's names stay its own).
enum SimulatorOperation {
    /// SDIO_GetPartialLargeObject = 0x9211 (reference p. 119): parameters ObjectHandle, offset low 32 bits,
    /// offset high 32 bits, maximum bytes (0xFFFFFFFF not supported); answers the bytes, parameter 1 = the count.
    static let getPartialLargeObject = OperationCode(vendor: 0x9211, name: "SDIO_GetPartialLargeObject")
}
