import Exposure
import PTPIP
import Shooting
import SonyProtocol
import Timing

extension SonyCamera {
    // MARK: - RemoteCamera: queries (from the model; a round trip only after a change event)

    /// The mode dial: M, S, A, P or another (with Sony's raw 0x500E code).
    package func shootingMode() async throws -> ShootingMode {
        try await refreshIfChanged()
        guard let mode = properties.exposureMode else {
            throw SonyCameraError.malformedData(
                what: "settings", reason: "the camera reports no exposure mode (0x500E)")
        }
        return Self.shootingMode(mode)
    }

    /// Every shutter speed the camera accepts now (settable list), or all it supports when none is settable.
    package func availableShutterSpeeds() async throws -> [CameraShutterSpeed] {
        try await refreshIfChanged()
        return offeredShutterValues().compactMap(Self.cameraSpeed)
    }

    /// The shutter speed the camera reports now.
    package func currentShutterSpeed() async throws -> CameraShutterSpeed {
        try await refreshIfChanged()
        guard let value = properties.shutterSpeed, let speed = Self.cameraSpeed(value) else {
            throw SonyCameraError.malformedData(
                what: "settings", reason: "the camera reports no valid shutter speed (0xD20D)")
        }
        return speed
    }

    /// The camera's values for 0xD20D: the settable list, else the supported one (display in A/P mode).
    /// A body that sends 0xD20D as a range (no list) is described by `rangedShutterValues()`.
    func offeredShutterValues() -> [SonyShutterValue] {
        if let ranged = rangedShutterValues() { return ranged }
        let settable = properties.settableShutterSpeeds.filter(\.isValid)
        return settable.isEmpty ? properties.supportedShutterSpeeds.filter(\.isValid) : settable
    }

    /// The values settable now: the settable list, or the values of a ranged 0xD20D.
    func settableShutterValues() -> [SonyShutterValue] {
        rangedShutterValues() ?? properties.settableShutterSpeeds.filter(\.isValid)
    }

    /// When 0xD20D comes as a range instead of a list: the list of 0xD229 when the body sends one, else
    /// Sony's standard 1/3-stop series (30" to 1/8000, and BULB) within the range's ends. Nil for a list.
    func rangedShutterValues() -> [SonyShutterValue]? {
        guard let descriptor = properties[.shutterSpeed], case let .range(minimum, maximum, _) = descriptor.form else {
            return nil
        }
        if let list = properties[.shutterSpeedList], case let .enumeration(settable, supported) = list.form {
            let values = (settable.isEmpty ? supported : settable).compactMap(SonyShutterValue.init).filter(\.isValid)
            if !values.isEmpty { return values }
        }
        // A range whose ends are no speeds (libgphoto2's RX100M7 notes show 0 to 0xFFFFFFFF) bounds nothing: the
        // ends found by stepping to them (`learnShutterLimits()`) do, else Sony's widest series is assumed.
        let ends = [minimum, maximum].compactMap(SonyShutterValue.init)
            .filter { $0.rawValue != UInt32.max }.compactMap(\.speed)
        if ends.count == 2 && ends[0] != ends[1] {
            return Self.standardSeries(longest: ends.max()!, fastest: ends.min()!)
        }
        if let shutterLimits {
            return Self.standardSeries(longest: shutterLimits.slowest, fastest: shutterLimits.fastest)
        }
        return Self.standardSeries()
    }

    /// Whether 0xD20D is a range that names no speeds and no list says which (the ILCE-6000's 0..0xFFFFFFFF
    /// display-only range): only stepping to its ends tells what the body does.
    var shutterRangeIsUnbounded: Bool {
        guard let descriptor = properties[.shutterSpeed], case let .range(minimum, maximum, _) = descriptor.form else {
            return false
        }
        if let list = properties[.shutterSpeedList], case let .enumeration(settable, supported) = list.form,
            !(settable.isEmpty ? supported : settable).compactMap(SonyShutterValue.init).filter(\.isValid).isEmpty
        {
            return false
        }
        let ends = [minimum, maximum].compactMap(SonyShutterValue.init)
            .filter { $0.rawValue != UInt32.max }.compactMap(\.speed)
        return !(ends.count == 2 && ends[0] != ends[1])
    }

    /// Sony's 1/3-stop series from `longest` (at most 30") to `fastest`, BULB first, in notch order.
    static func standardSeries(
        longest: ShutterSpeed = ShutterSpeed(numerator: 30, denominator: 1),
        fastest: ShutterSpeed = ShutterSpeed(numerator: 1, denominator: 8000)
    ) -> [SonyShutterValue] {
        let timed = ShutterScale.third.speeds
            .filter { $0 <= longest && $0 >= fastest && $0.seconds <= 30 }
            .compactMap(SonyShutterValue.init)
        return [.bulb] + timed.reversed()
    }

    /// Sony's mode as the runner knows modes.
    static func shootingMode(_ mode: SonyExposureMode) -> ShootingMode {
        switch mode {
        case .manual: .manual
        case .shutterPriority: .shutterPriority
        case .aperturePriority: .aperturePriority
        case .programAuto: .program
        default: .other(code: mode.rawValue, name: mode.name)
        }
    }

    /// A camera value as the runner knows speeds; nil for values that are no time at all.
    static func cameraSpeed(_ value: SonyShutterValue) -> CameraShutterSpeed? {
        if value.isBulb { return .bulb }
        return value.speed.map(CameraShutterSpeed.timed)
    }

    /// Throws `.unsupportedMode` unless the dial is on M or S.
    func requireShutterMode() throws {
        guard let mode = properties.exposureMode else { throw SonyCameraError.unsupportedMode(current: "unknown") }
        guard mode.allowsShutterSpeedControl else { throw SonyCameraError.unsupportedMode(current: mode.name) }
    }

    // MARK: - RemoteCamera: setting the shutter speed

    /// Sets the shutter speed and returns only once a read-back shows it.
    ///
    /// Protocol 3.00: SDIO_SetExtDevicePropValue (0x9205) with the camera's own encoding of the speed,
    /// then change-only 0x9209 read-backs, each after a change event, for up to
    /// `shutterConfirmTimeout`; the set is sent again up to `shutterSetAttempts` times. Protocol 2.00:
    /// notch steps (see `stepShutter`). A speed already set costs no round trip.
    package func setShutterSpeed(_ speed: CameraShutterSpeed) async throws {
        try await refreshIfChanged()
        try requireShutterMode()
        let offered = settableShutterValues()
        let target: SonyShutterValue? =
            switch speed {
            case .bulb: offered.first(where: \.isBulb)
            case let .timed(value): SonyShutterValue.matching(value, among: offered)
            }
        guard let target else {
            throw SonyCameraError.shutterSpeedNotOffered(
                requested: speed.description, available: SonyShutterStepping.notchOrder(offered).map(\.label))
        }
        if let current = properties.shutterSpeed, current.isSameExposure(as: target) { return }
        if session.shutterControl == .direct, rangedShutterValues() == nil {
            do {
                try await setShutterAbsolutely(target)
                return
            } catch let error as SonyCameraError {
                // A body that took a direct set in this session and ignores one while images wait in its buffer
                // ignores speed changes while it holds images (alpha-fairy's report): not a body to step, and the
                // caller downloads, then sets again. Stepping would cost every later change its notch delay.
                if case .shutterSpeedNotConfirmed = error, session.directSetConfirmed, imagesMayWait { throw error }
                // A 3.00 body that refuses or ignores a direct set is stepped for the rest of the session.
                switch error {
                case .operationFailed, .shutterSpeedNotConfirmed:
                    session.shutterControl = .stepping
                    note(
                        "the camera \(error.isRefusal ? "refused" : "ignored") setting the shutter speed directly; "
                            + "hdrshoot steps it notch by notch for the rest of this session")
                default:
                    throw error
                }
            }
        }
        try await stepShutter(to: target, offered: offered)
    }

    /// Whether images of this session may wait in the body's buffer: 0xD215 counts some, or more releases were
    /// pressed than files fetched.
    private var imagesMayWait: Bool {
        (properties.shootingFileInfo?.imagesWaiting ?? 0) > 0 || session.images.releases > session.filesFetched
    }

    /// Protocol 3.00: set with 0x9205, confirm by read-back, send again when the camera did not take it.
    private func setShutterAbsolutely(_ target: SonyShutterValue) async throws {
        // Until one direct set is confirmed in this session, one unconfirmed set is enough to step instead; while
        // images may wait in the buffer, one is enough to hand back (the caller downloads them, then sets again).
        let attempts = session.directSetConfirmed && !imagesMayWait ? configuration.shutterSetAttempts : 1
        for _ in 0..<attempts {
            try await run(
                .sdioSetExtDevicePropValue, [UInt32(SonyPropertyCode.shutterSpeed.rawValue)],
                sending: target.ptpValue.encoded,
                during: "setting the shutter speed to \(target.label) (0x9205)")
            if try await awaitShutter(
                timeout: configuration.shutterConfirmTimeout, until: { $0.isSameExposure(as: target) }) != nil
            {
                session.directSetConfirmed = true
                return
            }
        }
        throw SonyCameraError.shutterSpeedNotConfirmed(
            requested: target.label, reported: properties.shutterSpeed?.label ?? "nothing", attempts: attempts)
    }

    /// Protocol 2.00: jump by the notch count computed from the camera's own list, read back, correct.
    ///
    /// A step that does not move the value at all means the camera will not take it (end of its range,
    /// locked); a read-back past the target is an overshoot, corrected by a step back. The usual case is
    /// one step and one read-back; at most `shutterSetAttempts` steps are sent.
    private func stepShutter(to target: SonyShutterValue, offered: [SonyShutterValue]) async throws {
        guard var current = properties.shutterSpeed else {
            throw SonyCameraError.malformedData(
                what: "settings", reason: "the camera reports no shutter speed (0xD20D)")
        }
        var steps = 0
        var lostSteps = 0
        while !current.isSameExposure(as: target) {
            guard steps - lostSteps < configuration.shutterSetAttempts else {
                throw SonyCameraError.shutterSpeedNotConfirmed(
                    requested: target.label, reported: current.label, attempts: steps)
            }
            let notches: Int
            let parameter: UInt8
            do {
                notches = try SonyShutterStepping.notches(from: current, to: target, in: offered)
                parameter = try SonyShutterStepping.controlParameter(notches: notches)
            } catch {
                throw SonyCameraError.shutterSpeedRejected(requested: target.label, stuckAt: current.label)
            }
            let before = current
            let generation = doorbell.generation
            try await run(
                .sdioControlDevice, [UInt32(SonyPropertyCode.shutterSpeed.rawValue)], sending: [parameter],
                during: "stepping the shutter speed \(notches) notch(es) (0x9207)")
            steps += 1
            // A 2.00 body applies the step a moment later and says so with 0xC203: wait for that first,
            // so one read-back usually suffices.
            if session.bodySendsEvents {
                _ = try await waitForEvent(after: generation, timeout: configuration.stepConfirmTimeout)
            }
            guard
                let moved = try await awaitShutter(
                    timeout: configuration.stepConfirmTimeout,
                    until: { !$0.isSameExposure(as: before) })
            else {
                // A step answered OK but not applied (a lost notch): send it again from the read-back.
                lostSteps += 1
                guard lostSteps <= configuration.shutterSetAttempts else {
                    throw SonyCameraError.shutterSpeedRejected(requested: target.label, stuckAt: before.label)
                }
                continue
            }
            current = moved
            // A multi-notch jump may land on intermediate values first: let it settle (until no further
            // change event comes within the settle time) before deciding to correct.
            if !current.isSameExposure(as: target), !Self.passed(target, from: before, at: current, in: offered) {
                current = try await settleShutter(from: current, target: target)
            }
        }
    }

    /// Whether `current` lies beyond `target` as seen from `start` (an overshoot).
    private static func passed(
        _ target: SonyShutterValue, from start: SonyShutterValue, at current: SonyShutterValue,
        in offered: [SonyShutterValue]
    ) -> Bool {
        guard let wanted = try? SonyShutterStepping.notches(from: start, to: target, in: offered),
            let moved = try? SonyShutterStepping.notches(from: start, to: current, in: offered)
        else { return false }
        return moved.signum() == wanted.signum() && abs(moved) > abs(wanted)
    }

    /// Follows further change events while the value keeps moving toward `target`.
    func settleShutter(
        from start: SonyShutterValue, target: SonyShutterValue
    ) async throws -> SonyShutterValue {
        var current = start
        let settle = min(configuration.shutterConfirmTimeout, .seconds(1))
        while !current.isSameExposure(as: target) {
            let generation = doorbell.generation
            guard try await waitForEvent(after: generation, timeout: settle) else { return current }
            try await refreshIfChanged()
            guard let now = properties.shutterSpeed else { return current }
            current = now
        }
        return current
    }

    /// Reads back (change-only 0x9209) until `accept` holds for 0xD20D, waiting for a change event
    /// between reads; returns the accepted value, or nil after `timeout`.
    func awaitShutter(timeout: Duration, until accept: (SonyShutterValue) -> Bool) async throws -> SonyShutterValue? {
        let watch = Stopwatch(clock: clock)
        var polls = PollBackoff(configuration.pollIntervals)
        while true {
            let generation = doorbell.generation
            try await refreshProperties(full: false)
            if let value = properties.shutterSpeed, accept(value) { return value }
            let left = watch.remaining(of: timeout)
            guard left > .zero else { return nil }
            if try await !waitForPause(after: generation, timeout: left, polls: &polls) {
                // No event within the timeout: one last read, for bodies that do not announce changes.
                try await refreshProperties(full: false)
                if let value = properties.shutterSpeed, accept(value) { return value }
                return nil
            }
        }
    }
}
