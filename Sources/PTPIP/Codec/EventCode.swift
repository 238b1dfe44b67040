/// A PTP event code (ISO 15740 §12.4).
///
/// This layer names the standard codes only; a vendor's codes (0xC000-0xCFFF, ISO 15740 §12.4) are declared by
/// the vendor's layer with `init(vendor:name:)`. Two codes are equal when their numbers are: the name is a
/// label, not part of the identity.
package struct EventCode: PTPCode {
    /// The code as it travels on the wire.
    package let rawValue: UInt16
    /// The vendor's name of a vendor-extension code, as its declaring layer gave it.
    package let vendorName: String?

    /// Wraps a raw event code.
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
        vendorName = nil
    }

    /// Wraps a raw event code.
    package init(_ rawValue: UInt16) { self.init(rawValue: rawValue) }

    /// A vendor's extension code with the vendor's name for it (e.g. Sony's `SDIE_ObjectAdded = 0xC201`).
    package init(vendor rawValue: UInt16, name: String) {
        self.rawValue = rawValue
        vendorName = name
    }

    /// CancelTransaction = 0x4001.
    package static let cancelTransaction = EventCode(0x4001)
    /// ObjectAdded = 0x4002.
    package static let objectAdded = EventCode(0x4002)
    /// ObjectRemoved = 0x4003.
    package static let objectRemoved = EventCode(0x4003)
    /// StoreAdded = 0x4004.
    package static let storeAdded = EventCode(0x4004)
    /// StoreRemoved = 0x4005.
    package static let storeRemoved = EventCode(0x4005)
    /// DevicePropChanged = 0x4006.
    package static let devicePropChanged = EventCode(0x4006)
    /// ObjectInfoChanged = 0x4007.
    package static let objectInfoChanged = EventCode(0x4007)
    /// DeviceInfoChanged = 0x4008.
    package static let deviceInfoChanged = EventCode(0x4008)
    /// RequestObjectTransfer = 0x4009.
    package static let requestObjectTransfer = EventCode(0x4009)
    /// StoreFull = 0x400A.
    package static let storeFull = EventCode(0x400A)
    /// DeviceReset = 0x400B.
    package static let deviceReset = EventCode(0x400B)
    /// StorageInfoChanged = 0x400C.
    package static let storageInfoChanged = EventCode(0x400C)
    /// CaptureComplete = 0x400D.
    package static let captureComplete = EventCode(0x400D)
    /// UnreportedStatus = 0x400E.
    package static let unreportedStatus = EventCode(0x400E)

    /// The word for a code without a name in messages.
    package static let kind = "event"

    /// The protocol's names of the standard codes.
    package static let standardNames: [UInt16: String] = [
        0x4001: "CancelTransaction", 0x4002: "ObjectAdded", 0x4003: "ObjectRemoved", 0x4004: "StoreAdded",
        0x4005: "StoreRemoved", 0x4006: "DevicePropChanged", 0x4007: "ObjectInfoChanged",
        0x4008: "DeviceInfoChanged", 0x4009: "RequestObjectTransfer", 0x400A: "StoreFull", 0x400B: "DeviceReset",
        0x400C: "StorageInfoChanged", 0x400D: "CaptureComplete", 0x400E: "UnreportedStatus"
    ]
}
