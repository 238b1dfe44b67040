/// A PTP event code (ISO 15740 §12.4).
///
/// This layer names the standard codes only; a vendor's codes (0xC000-0xCFFF, ISO 15740 §12.4) are declared by
/// the vendor's layer with `init(vendor:name:)`. Two codes are equal when their numbers are: the name is a
/// label, not part of the identity.
package typealias EventCode = PTPCode<EventKind>

/// What makes a `PTPCode` an event code: its word in messages and the standard names.
package enum EventKind: PTPCodeKind {
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

extension EventCode {
    /// CancelTransaction = 0x4001.
    package static var cancelTransaction: Self { Self(0x4001) }
    /// ObjectAdded = 0x4002.
    package static var objectAdded: Self { Self(0x4002) }
    /// ObjectRemoved = 0x4003.
    package static var objectRemoved: Self { Self(0x4003) }
    /// StoreAdded = 0x4004.
    package static var storeAdded: Self { Self(0x4004) }
    /// StoreRemoved = 0x4005.
    package static var storeRemoved: Self { Self(0x4005) }
    /// DevicePropChanged = 0x4006.
    package static var devicePropChanged: Self { Self(0x4006) }
    /// ObjectInfoChanged = 0x4007.
    package static var objectInfoChanged: Self { Self(0x4007) }
    /// DeviceInfoChanged = 0x4008.
    package static var deviceInfoChanged: Self { Self(0x4008) }
    /// RequestObjectTransfer = 0x4009.
    package static var requestObjectTransfer: Self { Self(0x4009) }
    /// StoreFull = 0x400A.
    package static var storeFull: Self { Self(0x400A) }
    /// DeviceReset = 0x400B.
    package static var deviceReset: Self { Self(0x400B) }
    /// StorageInfoChanged = 0x400C.
    package static var storageInfoChanged: Self { Self(0x400C) }
    /// CaptureComplete = 0x400D.
    package static var captureComplete: Self { Self(0x400D) }
    /// UnreportedStatus = 0x400E.
    package static var unreportedStatus: Self { Self(0x400E) }

}
