/// A PTP operation code (PIMA 15740 / ISO 15740 §10.4).
///
/// A struct rather than an enum so that codes we have no name for still round-trip unchanged. This layer names
/// the standard codes only; a vendor's codes (0x9000-0x9FFF, ISO 15740 §10.4) are declared by the vendor's
/// layer with `init(vendor:name:)`, so the name travels with the constant into every message. Two codes are
/// equal when their numbers are: the name is a label, not part of the identity.
package struct OperationCode: PTPCode {
    /// The code as it travels on the wire.
    package let rawValue: UInt16
    /// The vendor's name of a vendor-extension code, as its declaring layer gave it.
    package let vendorName: String?

    /// Wraps a raw operation code.
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
        vendorName = nil
    }

    /// Wraps a raw operation code.
    package init(_ rawValue: UInt16) { self.init(rawValue: rawValue) }

    /// A vendor's extension code with the vendor's name for it (e.g. Sony's `SDIO_Connect = 0x9201`).
    package init(vendor rawValue: UInt16, name: String) {
        self.rawValue = rawValue
        vendorName = name
    }

    // MARK: - Standard PTP operations (ISO 15740 §10.4)

    /// GetDeviceInfo = 0x1001.
    package static let getDeviceInfo = OperationCode(0x1001)
    /// OpenSession = 0x1002.
    package static let openSession = OperationCode(0x1002)
    /// CloseSession = 0x1003.
    package static let closeSession = OperationCode(0x1003)
    /// GetStorageIDs = 0x1004.
    package static let getStorageIDs = OperationCode(0x1004)
    /// GetStorageInfo = 0x1005.
    package static let getStorageInfo = OperationCode(0x1005)
    /// GetNumObjects = 0x1006.
    package static let getNumObjects = OperationCode(0x1006)
    /// GetObjectHandles = 0x1007.
    package static let getObjectHandles = OperationCode(0x1007)
    /// GetObjectInfo = 0x1008.
    package static let getObjectInfo = OperationCode(0x1008)
    /// GetObject = 0x1009.
    package static let getObject = OperationCode(0x1009)
    /// GetThumb = 0x100A.
    package static let getThumb = OperationCode(0x100A)
    /// DeleteObject = 0x100B.
    package static let deleteObject = OperationCode(0x100B)
    /// SendObjectInfo = 0x100C.
    package static let sendObjectInfo = OperationCode(0x100C)
    /// SendObject = 0x100D.
    package static let sendObject = OperationCode(0x100D)
    /// InitiateCapture = 0x100E.
    package static let initiateCapture = OperationCode(0x100E)
    /// FormatStore = 0x100F.
    package static let formatStore = OperationCode(0x100F)
    /// ResetDevice = 0x1010.
    package static let resetDevice = OperationCode(0x1010)
    /// SelfTest = 0x1011.
    package static let selfTest = OperationCode(0x1011)
    /// SetObjectProtection = 0x1012.
    package static let setObjectProtection = OperationCode(0x1012)
    /// PowerDown = 0x1013.
    package static let powerDown = OperationCode(0x1013)
    /// GetDevicePropDesc = 0x1014.
    package static let getDevicePropDesc = OperationCode(0x1014)
    /// GetDevicePropValue = 0x1015.
    package static let getDevicePropValue = OperationCode(0x1015)
    /// SetDevicePropValue = 0x1016.
    package static let setDevicePropValue = OperationCode(0x1016)
    /// ResetDevicePropValue = 0x1017.
    package static let resetDevicePropValue = OperationCode(0x1017)
    /// TerminateOpenCapture = 0x1018.
    package static let terminateOpenCapture = OperationCode(0x1018)
    /// MoveObject = 0x1019.
    package static let moveObject = OperationCode(0x1019)
    /// CopyObject = 0x101A.
    package static let copyObject = OperationCode(0x101A)
    /// GetPartialObject = 0x101B.
    package static let getPartialObject = OperationCode(0x101B)
    /// InitiateOpenCapture = 0x101C.
    package static let initiateOpenCapture = OperationCode(0x101C)

    /// The word for a code without a name in messages.
    package static let kind = "operation"

    /// The protocol's names of the standard codes.
    package static let standardNames: [UInt16: String] = [
        0x1001: "GetDeviceInfo", 0x1002: "OpenSession", 0x1003: "CloseSession", 0x1004: "GetStorageIDs",
        0x1005: "GetStorageInfo", 0x1006: "GetNumObjects", 0x1007: "GetObjectHandles", 0x1008: "GetObjectInfo",
        0x1009: "GetObject", 0x100A: "GetThumb", 0x100B: "DeleteObject", 0x100C: "SendObjectInfo",
        0x100D: "SendObject", 0x100E: "InitiateCapture", 0x100F: "FormatStore", 0x1010: "ResetDevice",
        0x1011: "SelfTest", 0x1012: "SetObjectProtection", 0x1013: "PowerDown", 0x1014: "GetDevicePropDesc",
        0x1015: "GetDevicePropValue", 0x1016: "SetDevicePropValue", 0x1017: "ResetDevicePropValue",
        0x1018: "TerminateOpenCapture", 0x1019: "MoveObject", 0x101A: "CopyObject", 0x101B: "GetPartialObject",
        0x101C: "InitiateOpenCapture"
    ]
}

/// Formats a 16-bit code as `0xNNNN` (upper-case digits, zero-padded).
func hex16(_ value: UInt16) -> String { hexString(UInt64(value), digits: 4) }

/// Formats a 32-bit value as `0xNNNNNNNN`.
func hex32(_ value: UInt32) -> String { hexString(UInt64(value), digits: 8) }

/// Formats `value` as `0x` followed by at least `digits` upper-case hex digits.
func hexString(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
}
