import PTPIPCodec
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
            // speed-ignored-while-buffered: a notch step is no more taken than a direct set while captures wait.
            if quirks.speedIgnoredWhileBuffered, isBusyWithCaptures { return .reply(CameraReply(.ok)) }
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

    /// S2 down: fires a frame, unless the body is busy, its buffer is full, or a quirk takes the release
    /// without firing.
    mutating func pressS2(now: Duration) -> CameraAction {
        if faults.takeBusyCapture() { return .reply(CameraReply(.deviceBusy)) }
        // A body still exposing or taking its dark frame answers busy; processing runs behind the shutter.
        guard shutter == .idle, !connection.button.fullPress else { return .reply(CameraReply(.deviceBusy)) }
        // busy-while-buffered: a one-image body is busy until its image is processed and fetched.
        if quirks.busyWhileBuffered && capturesHeld > 0 { return .reply(CameraReply(.deviceBusy)) }
        connection.button.fullPress = true
        // A full buffer, startup-nofire, af-lock, af-fail: the release is taken (OK) and nothing fires, as
        // SDIO_ControlDevice answers OK when the camera fails to release (reference p. 114).
        guard capturesHeld < configuration.bufferCapacity, releaseFires(now: now) else {
            return .reply(CameraReply(.ok))
        }
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
        let capture = Capture(
            frame: frame, shutterValue: value.rawValue, started: now, exposure: .zero, files: filePlan())
        shutter = .exposing(capture, ends: ends)
        advance(to: now)
        if faults.dropsAtFrame(frame) { return .drop }
        return .reply(CameraReply(.ok))
    }

    /// S2 up: ends a BULB exposure.
    @discardableResult
    mutating func releaseS2(now: Duration) -> CameraReply {
        connection.button.fullPress = false
        if case let .exposing(capture, ends) = shutter, SonyShutterValue(rawValue: capture.shutterValue).isBulb {
            finishExposure(capture, ends: min(now, ends ?? now), cutByCap: false)
            advance(to: now)
        }
        return CameraReply(.ok)
    }

    private func capped(_ duration: Duration) -> Duration {
        guard let cap = configuration.exposureCap else { return duration }
        return min(duration, cap)
    }

    /// Ends an exposure (the shutter closes: SDIE_CapturedEvent 0xC206, reference p. 676); `cutByCap` is true
    /// when a deadline ended it (timed speed or a BULB cut by the cap). Callers let time run on (`advance`)
    /// so a zero dark frame or processing time completes at once.
    mutating func finishExposure(_ exposing: Capture, ends: Duration, cutByCap: Bool) {
        var capture = exposing
        capture.exposure = ends - capture.started
        // Long Exposure NR: a dark frame as long as the exposure, before processing; busy meanwhile.
        let darkFrame = noiseReduction(value: capture.shutterValue, exposure: capture.exposure, cutByCap: cutByCap)
            .map(capped)
        var record = CaptureRecord(
            frame: capture.frame, started: capture.started, shutterValue: capture.shutterValue,
            exposure: capture.exposure)
        if let darkFrame { record.noiseReductionSeconds = CameraSimulator.seconds(darkFrame) }
        finishedCaptures.append(record)
        if !quirks.capturedEventUnsent {
            events.append(PTPEvent(code: .capturedEvent, transactionID: 0xFFFF_FFFF, parameters: []))
        }
        if let darkFrame {
            shutter = .darkFrame(capture, ends: ends + darkFrame)
        } else {
            shutterFreed(capture, at: ends)
        }
    }

    /// The shutter is free again at `time` (exposure or dark frame over): the capture processes behind it for
    /// `processingTime`, then its files join the buffer.
    mutating func shutterFreed(_ capture: Capture, at time: Duration) {
        shutter = .idle
        processing.append(ProcessingCapture(capture: capture, readyAt: time + configuration.processingTime))
    }
}
