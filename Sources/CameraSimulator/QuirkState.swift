import PTPIPCodec
import SonyProtocol

/// The configured quirks, digested into what the simulated body consults, plus the budgets they consume.
struct QuirkState: Sendable {
    /// What a 3.00 body does with a 0x9205 set of 0xD20D.
    enum DirectSet: Sendable, Equatable {
        /// Answered with this response code, nothing changes.
        case refused(ResponseCode)
        /// Answered OK, nothing changes.
        case ignored
    }

    /// What GetObjectInfo answers instead of the real dataset.
    enum ObjectInfoDefect: Sendable, Equatable {
        /// An empty file name and ObjectCompressedSize 0.
        case empty
        /// A 7-byte data phase: the dataset cut short.
        case garbled
    }

    /// Idle time after which both connections close.
    private(set) var idleDrop: Duration?
    /// Time after OpenSession during which a release fires nothing.
    private(set) var startupNoFire: Duration?
    /// Whether the body has a physical AF/MF switch.
    private(set) var focusSwitch = false
    /// How long S1 must be held in AF before focus locks (zero: at once).
    private(set) var afLock: Duration = .zero
    /// Whether focus never locks in AF.
    private(set) var afFail = false
    /// Whether 0xD20D is described as a range.
    private(set) var shutterRange = false
    /// Whether 0xD229 lists the shutter speeds.
    private(set) var shutterListInD229 = false
    /// The direct-set behaviour on 3.00, if any.
    private(set) var directSet: DirectSet?
    /// Notch steps still to lose.
    private var lostNotches = 0
    /// Whether the body sends no events.
    private(set) var noEvents = false
    /// DeviceBusy answers per session to SDIO_Connect / 0x9209.
    private(set) var busyAtStart = 0
    /// Whether 0xD215 lags one read behind a download.
    private(set) var shootingFileInfoLag = false
    /// Bytes GetObject sends beyond (positive) or short of (negative) the image's size.
    private(set) var transferDelta = 0
    /// A defective GetObjectInfo answer, if any.
    private(set) var objectInfoDefect: ObjectInfoDefect?
    /// Whether Long Exposure NR starts ON.
    private(set) var longExposureNR = false
    /// Whether 0xD215 counts captures (a RAW+JPEG pair as one) instead of files.
    private(set) var shootingFileInfoCountsCaptures = false
    /// Whether a shutter speed set is ignored while captures wait or process.
    private(set) var speedIgnoredWhileBuffered = false
    /// Whether a release is answered busy while a capture processes or waits (a one-image buffer).
    private(set) var busyWhileBuffered = false
    /// Whether 0xC206 is listed in DeviceInfo but never sent.
    private(set) var capturedEventUnsent = false
    /// Whether the body has no 0xD215 (events alone announce its images).
    private(set) var noShootingFileInfo = false
    /// Whether 0x500E is a u16 (the 2.00 encoding).
    private(set) var modeU16 = false

    init(_ quirks: [SimulatorQuirk]) {
        for quirk in quirks {
            switch quirk {
            case let .idleDrop(time): idleDrop = time
            case let .startupNoFire(time): startupNoFire = time
            case .focusSwitch: focusSwitch = true
            case let .afLock(time): afLock = time
            case .afFail: afFail = true
            case let .shutterRange(listInD229):
                shutterRange = true
                shutterListInD229 = shutterListInD229 || listInD229
            case let .directSetRefused(code): directSet = .refused(code)
            case .directSetIgnored: directSet = .ignored
            case let .lostNotch(count): lostNotches += count
            case .noEvents: noEvents = true
            case let .busyAtStart(count): busyAtStart += count
            case .shootingFileInfoLag: shootingFileInfoLag = true
            case let .transferLong(bytes): transferDelta += bytes
            case let .transferShort(bytes): transferDelta -= bytes
            case .objectInfoEmpty: objectInfoDefect = .empty
            case .objectInfoGarbled: objectInfoDefect = .garbled
            case .longExposureNR: longExposureNR = true
            case .shootingFileInfoCountsCaptures: shootingFileInfoCountsCaptures = true
            case .speedIgnoredWhileBuffered: speedIgnoredWhileBuffered = true
            case .busyWhileBuffered: busyWhileBuffered = true
            case .capturedEventListedNotSent: capturedEventUnsent = true
            case .noShootingFileInfo: noShootingFileInfo = true
            case .modeU16: modeU16 = true
            }
        }
    }

    /// Consumes one lost notch step, if any are left.
    mutating func takeLostNotch() -> Bool {
        guard lostNotches > 0 else { return false }
        lostNotches -= 1
        return true
    }
}

/// Property codes only the quirks use (kept here so the client's SonyProtocol names stay its own).
enum QuirkProperty {
    /// Long Exposure NR = 0xD15B, u8: 0x01 OFF, 0x02 ON (Sony PTP 3 reference p. 349).
    static let longExposureNR = SonyPropertyCode(rawValue: 0xD15B)
    /// AF with Shutter = 0xD1AD, u8: 0x01 OFF, 0x02 ON (reference pp. 393-394).
    static let afWithShutter = SonyPropertyCode(rawValue: 0xD1AD)
    /// 0xD229, u32: on bodies that describe 0xD20D as a range, the enumerated shutter speeds in 0xD20D's
    /// encoding (libgphoto2's sony-rx100m7.txt); the 2025 reference gives 0xD229 another meaning (p. 461).
    static let shutterSpeedList = SonyPropertyCode(rawValue: 0xD229)
    /// Battery Remaining = 0xD218, INT8 percent, read only (reference p. 451).
    static let batteryRemaining = SonyPropertyCode(rawValue: 0xD218)
    /// Media SLOT1 Remaining number shots = 0xD249, u32, read only (reference p. 461).
    static let remainingShots = SonyPropertyCode(rawValue: 0xD249)
    /// 0xD15B / 0xD1AD value OFF.
    static let off: UInt8 = 0x01
    /// 0xD15B / 0xD1AD value ON.
    static let on: UInt8 = 0x02
}

/// Focus Indication (0xD213, u8) values, Sony PTP 3 reference p. 447.
enum FocusIndication {
    /// 0x01 Unlock: S1 up, or not focusing.
    static let unlocked: UInt8 = 0x01
    /// 0x02 AF-S focused, AF locked.
    static let focusedSingle: UInt8 = 0x02
    /// 0x03 AF-S not focused (low contrast).
    static let notFocusedSingle: UInt8 = 0x03
    /// 0x05 AF-C tracking (still focusing).
    static let trackingContinuous: UInt8 = 0x05
    /// 0x06 AF-C focused.
    static let focusedContinuous: UInt8 = 0x06
    /// 0x07 AF-C not focused (low contrast).
    static let notFocusedContinuous: UInt8 = 0x07
}
