import PTPIPCodec

/// Sony's 0xC2xx events (Sony "Camera Control PTP"), in PTP's vendor range 0xC000-0xCFFF.
extension EventCode {
    /// SDIE_ObjectAdded = 0xC201: a captured image waits in the camera's buffer.
    package static var sonyObjectAdded: Self { Self(vendor: 0xC201, name: "SDIE_ObjectAdded") }
    /// SDIE_ObjectRemoved = 0xC202.
    package static var sonyObjectRemoved: Self { Self(vendor: 0xC202, name: "SDIE_ObjectRemoved") }
    /// SDIE_DevicePropChanged = 0xC203: re-read the extended properties.
    package static var sonyDevicePropChanged: Self { Self(vendor: 0xC203, name: "SDIE_DevicePropChanged") }
    /// SDIE_CapturedEvent = 0xC206, no parameters (Camera Control PTP 3 Reference, p. 676): an exposure ended
    /// (the shutter closed), before any Long Exposure NR and processing; its files are announced later by 0xC201.
    package static var capturedEvent: Self { Self(vendor: 0xC206, name: "SDIE_CapturedEvent") }

    /// Every Sony event this package names.
    package static var sonyEvents: [EventCode] {
        [
            .sonyObjectAdded, .sonyObjectRemoved, .sonyDevicePropChanged, .capturedEvent
        ]
    }

    /// The same code with Sony's name when it is one of Sony's events (for codes read from the wire).
    package var inSonyVocabulary: EventCode { Self.sonyEvents.first { $0 == self } ?? self }
}
