// Sony's SDIO vocabulary: property and control codes of Sony's
// "Camera Remote over PTP" protocol (Sony Camera Remote SDK / "Camera Control PTP" reference,
// protocol 2.00 and 3.00). Names follow Sony's documents; each constant was checked against
// libgphoto2 (camlibs/ptp2/ptp.h, config.c), rocc (simonmitchell/rocc) and the real RX100M7 and
// ILCE-9 bytes in ../shared/fixtures/sony/.

/// Parameter 1 of SDIO_GetAllExtDevicePropInfo (0x9209): which properties the camera answers with.
///
/// Sony's operation and event codes are `OperationCode.sdio...` and `EventCode.sony...`
/// (OperationCode+Sony.swift, EventCode+Sony.swift): one set of wire constants for the whole package.
package enum SonyPropertyDumpScope {
    /// Only the properties that changed since the last call.
    package static let changedPropertiesOnly: UInt32 = 1
    /// Every property.
    package static let allProperties: UInt32 = 0
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
    /// A second list of the shutter speeds (u32, 0xD20D's encoding), offered by bodies whose 0xD20D is sent as
    /// a range rather than a list (libgphoto2's sony-rx100m7 notes show such a range in a 2.00 session).
    package static let shutterSpeedList = Self(rawValue: 0xD229)
    /// FocusIndication = 0xD213, u8 (libgphoto2: FocusFound): focus state after S1.
    package static let focusIndication = Self(rawValue: 0xD213)
    /// AFWithShutter = 0xD1AD, u8: 1 = off, 2 = on (Camera Control PTP 3 Reference, pp. 393-394): whether a
    /// half-press focuses.
    package static let afWithShutter = Self(rawValue: 0xD1AD)
    /// BatteryRemaining = 0xD218, INT8 percent (Camera Control PTP 3 Reference, p. 451).
    package static let batteryRemaining = Self(rawValue: 0xD218)
    /// MediaSLOT1RemainingNumberShots = 0xD249, u32 (Camera Control PTP 3 Reference, p. 461).
    package static let remainingShots = Self(rawValue: 0xD249)
    /// LongExposureNR = 0xD15B, u8: 1 = off, 2 = on (Camera Control PTP 3 Reference, p. 349).
    package static let longExposureNR = Self(rawValue: 0xD15B)
    /// ShootingFileInfo = 0xD215, u16 (libgphoto2: ObjectInMemory): see `SonyShootingFileInfo`.
    package static let shootingFileInfo = Self(rawValue: 0xD215)
    /// BatteryLevel = 0xD218, i8 percent (-1 = unknown).
    package static let batteryLevel = Self(rawValue: 0xD218)
    /// ISO = 0xD21E, u32.
    package static let iso = Self(rawValue: 0xD21E)
    /// StillImageSaveDestination = 0xD222, u16 (libgphoto2: capture target): see
    /// `SonySaveDestination`.
    package static let saveDestination = Self(rawValue: 0xD222)
    /// StillImageTransSize = 0xD268, u8: 0x01 Original, 0x02 Small Size JPEG (Camera Control PTP 3 Reference,
    /// p. 491).
    package static let stillImageTransSize = Self(rawValue: 0xD268)
    /// RAW+J PC Save Image = 0xD269, u8: 0x01 RAW & JPEG, 0x02 JPEG only, 0x03 RAW only, 0x04 RAW & HEIF,
    /// 0x05 HEIF only (Camera Control PTP 3 Reference, pp. 491-492).
    package static let rawJPEGPCSaveImage = Self(rawValue: 0xD269)
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
