// Sony's SDIO vocabulary: the vendor operation, event, property and control codes of Sony's
// "Camera Remote over PTP" protocol (Sony Camera Remote SDK / "Camera Control PTP" reference,
// protocol 2.00 and 3.00). Names follow Sony's documents; each constant was checked against
// libgphoto2 (camlibs/ptp2/ptp.h, config.c), rocc (simonmitchell/rocc) and the real RX100M7 and
// ILCE-9 bytes in ../shared/fixtures/sony/.

/// A Sony vendor operation code (PTP operations 0x92xx; VendorExtensionID 0x11).
package struct SonyOperationCode: RawRepresentable, Hashable, Sendable {
    /// The 16-bit operation code on the wire.
    package let rawValue: UInt16
    /// Wraps a raw operation code.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// SDIO_Connect = 0x9201: params (phase 1, 2 or 3, 0, 0); data-in phase of 8 bytes.
    package static let sdioConnect = Self(rawValue: 0x9201)
    /// SDIO_GetExtDeviceInfo = 0x9202: param 1 = the host's protocol version (0x012C); data-in is
    /// `SonyExtDeviceInfo`.
    package static let sdioGetExtDeviceInfo = Self(rawValue: 0x9202)
    /// SDIO_SetExtDevicePropValue = 0x9205: param 1 = property code; data-out is the absolute value
    /// in the property's data type.
    package static let sdioSetExtDevicePropValue = Self(rawValue: 0x9205)
    /// SDIO_ControlDevice = 0x9207: param 1 = control (or, for stepping, property) code; data-out is
    /// the value (u16 for buttons, u8 notch for 0xD20D on protocol 2.00).
    package static let sdioControlDevice = Self(rawValue: 0x9207)
    /// SDIO_GetAllExtDevicePropInfo = 0x9209: param 1 = 0 for every property, 1 for only what
    /// changed since the last call; data-in is `SonyPropertyDump`.
    package static let sdioGetAllExtDevicePropInfo = Self(rawValue: 0x9209)

    /// Param 1 of SDIO_GetAllExtDevicePropInfo asking for only the changed properties.
    package static let changedPropertiesOnly: UInt32 = 1
    /// Param 1 of SDIO_GetAllExtDevicePropInfo asking for every property.
    package static let allProperties: UInt32 = 0

    /// Sony's name for the operation, e.g. `SDIO_Connect`.
    package var name: String? {
        switch rawValue {
        case 0x9201: "SDIO_Connect"
        case 0x9202: "SDIO_GetExtDeviceInfo"
        case 0x9205: "SDIO_SetExtDevicePropValue"
        case 0x9207: "SDIO_ControlDevice"
        case 0x9209: "SDIO_GetAllExtDevicePropInfo"
        default: nil
        }
    }
}

/// The phase parameter of SDIO_Connect (0x9201): hosts call 1, 2, then GetExtDeviceInfo, then 3.
package enum SonyConnectPhase: UInt32, Sendable, CaseIterable {
    /// First handshake call.
    case first = 1
    /// Second handshake call, before SDIO_GetExtDeviceInfo.
    case second = 2
    /// Final call, after SDIO_GetExtDeviceInfo.
    case third = 3
}

/// A Sony vendor event code (PTP events 0xC2xx).
package struct SonyEventCode: RawRepresentable, Hashable, Sendable {
    /// The 16-bit event code on the wire.
    package let rawValue: UInt16
    /// Wraps a raw event code.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// ObjectAdded = 0xC201: param 1 = object handle (0xFFFFC001 for the captured still).
    package static let objectAdded = Self(rawValue: 0xC201)
    /// ObjectRemoved = 0xC202.
    package static let objectRemoved = Self(rawValue: 0xC202)
    /// DevicePropChanged = 0xC203: param 1 = property code; re-read with a change-only 0x9209.
    package static let devicePropChanged = Self(rawValue: 0xC203)
}

/// A Sony device property code (standard 0x50xx codes and Sony's 0xD2xx codes).
package struct SonyPropertyCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 16-bit property code on the wire.
    package let rawValue: UInt16
    /// Wraps a raw property code.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// CompressionSetting = 0x5004 (PTP standard; Sony: still image quality). Absent on the RX100M7,
    /// which reports quality in 0xD252/0xD253 instead.
    package static let compressionSetting = Self(rawValue: 0x5004)
    /// FNumber = 0x5007, u16, f-number × 100.
    package static let fNumber = Self(rawValue: 0x5007)
    /// FocusMode = 0x500A, u16: see `SonyFocusMode`. (0x5004 is not focus-related, whatever the
    /// issue text says; 0x500A is the focus mode, in PTP and on Sony.)
    package static let focusMode = Self(rawValue: 0x500A)
    /// ExposureProgramMode = 0x500E, u32: see `SonyExposureMode`.
    package static let exposureProgramMode = Self(rawValue: 0x500E)
    /// ExposureBiasCompensation = 0x5010, i16, EV × 1000.
    package static let exposureBiasCompensation = Self(rawValue: 0x5010)
    /// ShutterSpeed = 0xD20D, u32 `numerator << 16 | denominator`, 0 = BULB: see `SonyShutterValue`.
    package static let shutterSpeed = Self(rawValue: 0xD20D)
    /// FocusIndication = 0xD213, u8 (libgphoto2: FocusFound): focus state after S1.
    package static let focusIndication = Self(rawValue: 0xD213)
    /// ShootingFileInfo = 0xD215, u16 (libgphoto2: ObjectInMemory): see `SonyShootingFileInfo`.
    package static let shootingFileInfo = Self(rawValue: 0xD215)
    /// BatteryLevel = 0xD218, i8 percent (-1 = unknown).
    package static let batteryLevel = Self(rawValue: 0xD218)
    /// ISO = 0xD21E, u32.
    package static let iso = Self(rawValue: 0xD21E)
    /// StillImageSaveDestination = 0xD222, u16 (libgphoto2: capture target): see
    /// `SonySaveDestination`.
    package static let saveDestination = Self(rawValue: 0xD222)
    /// PriorityKeySettings / position key setting = 0xD25A, u8: see `SonyPriorityKey`.
    package static let priorityKeySettings = Self(rawValue: 0xD25A)

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The code as Sony writes it, e.g. `0xD20D`.
    package var description: String { hex16(rawValue) }
}

/// A Sony control code: a "button" driven with SDIO_ControlDevice (0x9207).
package struct SonyControlCode: RawRepresentable, Hashable, Sendable {
    /// The 16-bit control code on the wire.
    package let rawValue: UInt16
    /// Wraps a raw control code.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// S1 (shutter half press, autofocus) = 0xD2C1, u16 `SonyButtonState`.
    package static let s1Button = Self(rawValue: 0xD2C1)
    /// S2 (shutter full press, release) = 0xD2C2, u16 `SonyButtonState`.
    package static let s2Button = Self(rawValue: 0xD2C2)
}

/// The u16 value sent with a button control code: Sony's 2 = pressed, 1 = released.
package enum SonyButtonState: UInt16, Sendable {
    /// Released (button up).
    case up = 1
    /// Pressed (button down).
    case down = 2

    /// The 2-byte little-endian data phase of SDIO_ControlDevice for this state.
    package var dataPhase: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}

/// Object handles Sony bodies use for images waiting in their buffer.
package enum SonyObjectHandle {
    /// The handle of the most recent captured still (GetObjectInfo/GetObject on it).
    package static let stillImage: UInt32 = 0xFFFF_C001
}
