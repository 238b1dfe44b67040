/// A PTP operation code (PIMA 15740 / ISO 15740 §10.4).
///
/// A struct rather than an enum so that codes we have no name for still round-trip unchanged. This layer names
/// the standard codes only; a vendor's codes (0x9000-0x9FFF, ISO 15740 §10.4) are declared by the vendor's
/// layer with `init(vendor:name:)`, so the name travels with the constant into every message. Two codes are
/// equal when their numbers are: the name is a label, not part of the identity.
package typealias OperationCode = PTPCode<OperationKind>

/// What makes a `PTPCode` an operation code: its word in messages and the standard names.
package enum OperationKind: PTPCodeKind {
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

extension OperationCode {
    // MARK: - Standard PTP operations (ISO 15740 §10.4)

    /// GetDeviceInfo = 0x1001.
    package static var getDeviceInfo: Self { Self(0x1001) }
    /// OpenSession = 0x1002.
    package static var openSession: Self { Self(0x1002) }
    /// CloseSession = 0x1003.
    package static var closeSession: Self { Self(0x1003) }
    /// GetStorageIDs = 0x1004.
    package static var getStorageIDs: Self { Self(0x1004) }
    /// GetStorageInfo = 0x1005.
    package static var getStorageInfo: Self { Self(0x1005) }
    /// GetNumObjects = 0x1006.
    package static var getNumObjects: Self { Self(0x1006) }
    /// GetObjectHandles = 0x1007.
    package static var getObjectHandles: Self { Self(0x1007) }
    /// GetObjectInfo = 0x1008.
    package static var getObjectInfo: Self { Self(0x1008) }
    /// GetObject = 0x1009.
    package static var getObject: Self { Self(0x1009) }
    /// GetThumb = 0x100A.
    package static var getThumb: Self { Self(0x100A) }
    /// DeleteObject = 0x100B.
    package static var deleteObject: Self { Self(0x100B) }
    /// SendObjectInfo = 0x100C.
    package static var sendObjectInfo: Self { Self(0x100C) }
    /// SendObject = 0x100D.
    package static var sendObject: Self { Self(0x100D) }
    /// InitiateCapture = 0x100E.
    package static var initiateCapture: Self { Self(0x100E) }
    /// FormatStore = 0x100F.
    package static var formatStore: Self { Self(0x100F) }
    /// ResetDevice = 0x1010.
    package static var resetDevice: Self { Self(0x1010) }
    /// SelfTest = 0x1011.
    package static var selfTest: Self { Self(0x1011) }
    /// SetObjectProtection = 0x1012.
    package static var setObjectProtection: Self { Self(0x1012) }
    /// PowerDown = 0x1013.
    package static var powerDown: Self { Self(0x1013) }
    /// GetDevicePropDesc = 0x1014.
    package static var getDevicePropDesc: Self { Self(0x1014) }
    /// GetDevicePropValue = 0x1015.
    package static var getDevicePropValue: Self { Self(0x1015) }
    /// SetDevicePropValue = 0x1016.
    package static var setDevicePropValue: Self { Self(0x1016) }
    /// ResetDevicePropValue = 0x1017.
    package static var resetDevicePropValue: Self { Self(0x1017) }
    /// TerminateOpenCapture = 0x1018.
    package static var terminateOpenCapture: Self { Self(0x1018) }
    /// MoveObject = 0x1019.
    package static var moveObject: Self { Self(0x1019) }
    /// CopyObject = 0x101A.
    package static var copyObject: Self { Self(0x101A) }
    /// GetPartialObject = 0x101B.
    package static var getPartialObject: Self { Self(0x101B) }
    /// InitiateOpenCapture = 0x101C.
    package static var initiateOpenCapture: Self { Self(0x101C) }

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
