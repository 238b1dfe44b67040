import PTPIP
import SonyProtocol

// MARK: - The shutter: buttons, notch steps, exposures

extension SimulatedCamera {
    // MARK: - Controls (0x9207)

    /// Answers SDIO_ControlDevice: S1, S2, or a notch step of the shutter speed.
    mutating func control(code: UInt16, data: [UInt8], now: Duration) -> CameraAction {
        switch code {
        case SonyControlCode.s1Button.rawValue, SonyControlCode.s2Button.rawValue:
            guard case let .uint16(raw)? = try? PTPValue(decoding: data, as: .uint16),
                let state = SonyButtonState(rawValue: raw)
            else { return .reply(CameraReply(.invalidDevicePropValue)) }
            if code == SonyControlCode.s1Button.rawValue {
                pressS1(state == .down, now: now)
                return .reply(CameraReply(.ok))
            }
            return state == .down ? pressS2(now: now) : .reply(releaseS2(now: now))
        case SonyPropertyCode.shutterSpeed.rawValue:
            guard case let .uint8(raw)? = try? PTPValue(decoding: data, as: SonyShutterStepping.notchDataType), raw != 0
            else {
                return .reply(CameraReply(.invalidDevicePropValue))
            }
            guard properties.first(where: { $0.code == .shutterSpeed })?.enabled == .on else {
                return .reply(CameraReply(.accessDenied))
            }
            // lost-notch: answered OK, never applied.
            if quirks.takeLostNotch() { return .reply(CameraReply(.ok)) }
            // +n (0x01...0x7F) is n notches faster, 0x100 - n is n notches slower; a body applies the
            // step after a short delay, and steps that arrive meanwhile add up.
            let total = (pendingStep?.notches ?? 0) + SonyShutterStepping.notches(controlParameter: raw)
            pendingStep = (total, now + configuration.stepDelay)
            advance(to: now)
            return .reply(CameraReply(.ok))
        default:
            return .reply(CameraReply(.devicePropNotSupported))
        }
    }

    /// S2 down: fires a frame, unless the body is busy or a quirk takes the release without firing.
    mutating func pressS2(now: Duration) -> CameraAction {
        if faults.takeBusyCapture() { return .reply(CameraReply(.deviceBusy)) }
        // A body still exposing, processing, or holding the previous image answers busy.
        guard shutter == .idle, buffered == nil, !s2Held else { return .reply(CameraReply(.deviceBusy)) }
        s2Held = true
        // startup-nofire, af-lock, af-fail: the release is taken (OK) and nothing fires.
        guard releaseFires(now: now) else { return .reply(CameraReply(.ok)) }
        let frame = frameCount + 1
        if let mode = faults.takeModeChange(beforeFrame: frame) { turnDial(to: mode) }
        frameCount = frame
        let value = shutterSpeed ?? .bulb
        var ends: Duration?
        if let speed = value.speed {
            ends = now + capped(.nanoseconds(Int64(speed.numerator) * 1_000_000_000 / Int64(speed.denominator)))
        }
        // BULB: exposing until S2 is released, however long the client holds it (its image records that time);
        // `--exposure-cap` only shortens a dark frame after it.
        shutter = .exposing(frame: frame, value: value.rawValue, started: now, ends: ends)
        advance(to: now)
        if faults.dropsAtFrame(frame) { return .drop }
        return .reply(CameraReply(.ok))
    }

    /// S2 up: ends a BULB exposure.
    @discardableResult
    mutating func releaseS2(now: Duration) -> CameraReply {
        s2Held = false
        if case let .exposing(frame, value, started, ends) = shutter, SonyShutterValue(rawValue: value).isBulb {
            finishExposure(frame: frame, value: value, started: started, ends: min(now, ends ?? now), cutByCap: false)
        }
        return CameraReply(.ok)
    }

    private func capped(_ duration: Duration) -> Duration {
        guard let cap = configuration.exposureCap else { return duration }
        return min(duration, cap)
    }

    /// Ends an exposure; `cutByCap` is true when a deadline ended it (timed speed or a BULB cut by the cap).
    mutating func finishExposure(frame: Int, value: UInt32, started: Duration, ends: Duration, cutByCap: Bool) {
        let exposure = ends - started
        var record = CaptureRecord(frame: frame, started: started, shutterValue: value, exposure: exposure)
        // Long Exposure NR: a dark frame as long as the exposure, before processing; busy meanwhile.
        let darkFrame = noiseReduction(value: value, exposure: exposure, cutByCap: cutByCap).map(capped)
        if let darkFrame { record.noiseReductionSeconds = CameraSimulator.seconds(darkFrame) }
        finishedCaptures.append(record)
        let readyAt = ends + (darkFrame ?? .zero) + configuration.processingTime
        shutter = .processing(frame: frame, value: value, started: started, exposure: exposure, readyAt: readyAt)
        if readyAt == ends { advance(to: ends) }
    }
}
