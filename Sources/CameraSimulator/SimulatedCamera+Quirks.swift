import PTPIPCodec
import SonyProtocol

// MARK: - Field quirks: the link, the session start, what the wire shows

extension SimulatedCamera {
    /// A command connection was admitted at `now`: `idle-drop` starts counting.
    package mutating func linkOpened(now: Duration) {
        advance(to: now)
        connection.idle = quirks.idleDrop.map { .running(dropsAt: now + $0) } ?? .off
    }

    /// Whether `idle-drop` has closed the link since the last call (the server then closes both connections).
    package mutating func takeLinkDrop() -> Bool {
        guard connection.idle == .expired else { return false }
        connection.idle = .off
        return true
    }

    /// `busy-at-start`: whether this SDIO_Connect or 0x9209 request is answered DeviceBusy (N per session).
    mutating func takeBusyAtStart(_ code: OperationCode) -> Bool {
        guard var session = connection.session, session.busyAtStartLeft > 0,
            code == .sdioConnect || code == .sdioGetAllExtDevicePropInfo
        else { return false }
        session.busyAtStartLeft -= 1
        connection.session = session
        return true
    }

    /// The descriptors as the 0x9209 answer shows them: `shutter-range` describes 0xD20D as a range.
    func wireDescriptors(_ selected: [SonyPropertyDescriptor]) -> [SonyPropertyDescriptor] {
        guard quirks.shutterRange else { return selected }
        return selected.map { descriptor in
            guard descriptor.code == .shutterSpeed else { return descriptor }
            var ranged = descriptor
            // As libgphoto2's sony-rx100m7.txt shows: the whole u32 space, step 1.
            ranged.form = .range(minimum: .uint32(0), maximum: .uint32(0xFFFF_FFFF), step: .uint32(1))
            return ranged
        }
    }

    /// A 0x9209 answer left: a lagging 0xD215 (`d215-lag`) now catches up.
    mutating func propertiesRead() {
        guard shootingFileInfoLagging else { return }
        shootingFileInfoLagging = false
        updateShootingFileInfo()
    }

    /// The GetObjectInfo data phase, defective under `objectinfo-empty` / `objectinfo-garbled`.
    func objectInfo(for file: BufferedImage) -> [UInt8] {
        let real = datasets.objectInfo(for: file.image, sequenceNumber: file.sequenceNumber)
        switch quirks.objectInfoDefect {
        case nil: return real
        case .garbled: return Array(real.prefix(7))
        case .empty:
            guard var info = try? ObjectInfo(decoding: real) else { return real }
            info.filename = ""
            info.objectCompressedSize = 0
            return info.encoded()
        }
    }

    /// How long the Long Exposure NR dark frame after this exposure lasts, nil when there is none.
    ///
    /// NR runs while 0xD15B is ON (the `lenr` quirk's start value; a client may change it) after exposures of
    /// 1 s or more: the nominal speed, or for BULB the time held (a BULB cut by `--exposure-cap` counts as
    /// long). The dark frame is as long as the exposure actually held, so `--exposure-cap` caps it too.
    func noiseReduction(value: UInt32, exposure: Duration, cutByCap: Bool) -> Duration? {
        guard self.value(of: QuirkProperty.longExposureNR) == .uint8(QuirkProperty.on) else { return nil }
        let shutter = SonyShutterValue(rawValue: value)
        let long: Bool
        if let seconds = shutter.speed?.seconds {
            long = seconds >= 1
        } else {
            long = exposure >= .seconds(1) || (cutByCap && configuration.exposureCap != nil)
        }
        return long && exposure > .zero ? exposure : nil
    }

    // MARK: - Focus (0x500A, 0xD1AD, 0xD213)

    /// Whether S1 starts autofocus: an AF mode (AF-S, AF-C, AF-A, DMF) with AF-with-shutter on (or absent).
    var autofocusOnS1: Bool {
        guard case let .uint16(raw)? = value(of: .focusMode) else { return false }
        switch SonyFocusMode(rawValue: raw) {
        case .singleAF, .continuousAF, .automaticAF, .directManual: break
        case .manual, .other: return false
        }
        let afWithShutter = value(of: QuirkProperty.afWithShutter)
        return afWithShutter == nil || afWithShutter == .uint8(QuirkProperty.on)
    }

    /// Whether the focus mode is AF-C (which has its own 0xD213 values).
    private var continuousAF: Bool { value(of: .focusMode) == .uint16(SonyFocusMode.continuousAF.rawValue) }

    /// S1 goes down or up at `now`: in AF, focusing starts (0xD213) and settles after the `af-lock` time.
    mutating func pressS1(_ down: Bool, now: Duration) {
        guard down != (connection.button.halfPress != nil) else { return }
        guard down, autofocusOnS1 else {
            connection.button.halfPress = down ? .off : nil
            setValue(.uint8(FocusIndication.unlocked), of: .focusIndication)
            return
        }
        if quirks.afLock == .zero {
            focusSettled()
        } else {
            // AF-C shows "tracking" while it focuses; AF-S has no such value and stays at Unlock.
            if continuousAF { setValue(.uint8(FocusIndication.trackingContinuous), of: .focusIndication) }
            connection.button.halfPress = .focusing(settlesAt: now + quirks.afLock)
        }
    }

    /// The autofocus started by S1 settles: focused, or not focused with `af-fail`.
    mutating func focusSettled() {
        connection.button.halfPress = .settled
        let value: UInt8
        switch (quirks.afFail, continuousAF) {
        case (false, false): value = FocusIndication.focusedSingle
        case (false, true): value = FocusIndication.focusedContinuous
        case (true, false): value = FocusIndication.notFocusedSingle
        case (true, true): value = FocusIndication.notFocusedContinuous
        }
        setValue(.uint8(value), of: .focusIndication)
    }

    /// Whether a release (S2 down) at `now` fires: not during `startup-nofire`, and in AF only once focus
    /// has locked (at once without `af-lock`, after S1 was held that long with it, never with `af-fail`).
    func releaseFires(now: Duration) -> Bool {
        // A full card: the body shows it and takes no picture.
        if value(of: QuirkProperty.remainingShots) == .uint32(0) { return false }
        if let window = quirks.startupNoFire, let opened = connection.session?.openedAt, now < opened + window {
            return false
        }
        guard autofocusOnS1 else { return true }
        if quirks.afFail { return false }
        if quirks.afLock == .zero { return true }
        // Held long enough: the focus deadline has passed (time runs before each request is answered).
        return connection.button.halfPress == .settled
    }
}
