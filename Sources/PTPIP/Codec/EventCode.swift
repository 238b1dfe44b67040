/// A PTP event code (ISO 15740 §12.4; Sony's 0xC2xx events from Sony's "Camera Control PTP").
package struct EventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it travels on the wire.
    package let rawValue: UInt16

    /// Wraps a raw event code.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Wraps a raw event code.
    package init(_ rawValue: UInt16) { self.rawValue = rawValue }

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

    /// Sony ObjectAdded = 0xC201: a captured image waits in the camera's buffer.
    package static let sonyObjectAdded = EventCode(0xC201)
    /// Sony ObjectRemoved = 0xC202.
    package static let sonyObjectRemoved = EventCode(0xC202)
    /// Sony DevicePropChanged = 0xC203: re-read the extended properties.
    package static let sonyDevicePropChanged = EventCode(0xC203)

    private static let names: [UInt16: String] = [
        0x4001: "CancelTransaction", 0x4002: "ObjectAdded", 0x4003: "ObjectRemoved", 0x4004: "StoreAdded",
        0x4005: "StoreRemoved", 0x4006: "DevicePropChanged", 0x4007: "ObjectInfoChanged",
        0x4008: "DeviceInfoChanged", 0x4009: "RequestObjectTransfer", 0x400A: "StoreFull", 0x400B: "DeviceReset",
        0x400C: "StorageInfoChanged", 0x400D: "CaptureComplete", 0x400E: "UnreportedStatus",
        0xC201: "SDIE_ObjectAdded", 0xC202: "SDIE_ObjectRemoved", 0xC203: "SDIE_DevicePropChanged",
    ]

    /// The protocol's name for the code, or nil when we do not know it.
    package var knownName: String? { Self.names[rawValue] }

    /// The protocol's name, or "event 0xNNNN" for a code we do not know.
    package var name: String { knownName ?? "event \(hex16(rawValue))" }

    /// The name and the number, e.g. "SDIE_DevicePropChanged (0xC203)".
    package var description: String { knownName.map { "\($0) (\(hex16(rawValue)))" } ?? name }
}
