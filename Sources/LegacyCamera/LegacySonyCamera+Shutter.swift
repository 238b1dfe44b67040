import CameraRemoteAPI
import Exposure
import Shooting
import Timing

/// The exposure mode and the shutter: read, mapped by value onto the planner's scale, set and confirmed.
extension LegacySonyCamera {
    /// The exposure mode now (`getExposureMode`, p. 84); a mode hdrshoot cannot name throws `.unsupportedMode`.
    package func shootingMode() async throws -> ShootingMode {
        let mode: String
        do {
            mode = try await perform("getExposureMode") { client async throws(CameraRemoteAPIError) in
                try await client.getExposureMode()
            }
        } catch {
            throw Self.refusal(error, operation: "getExposureMode")
        }
        settings.exposureMode = mode
        return try Self.shootingMode(named: mode)
    }

    /// The runner's mode for the API's name of it.
    static func shootingMode(named name: String) throws(LegacySonyCameraError) -> ShootingMode {
        switch name {
        case "Manual": .manual
        case "Shutter": .shutterPriority
        case "Aperture": .aperturePriority
        case "Program Auto": .program
        default: throw .unsupportedMode(current: name)
        }
    }

    /// Every shutter speed offered now (`getAvailableShutterSpeed`, p. 106: `[current, [candidates]]`, empty
    /// candidates outside M and S), BULB included; labels that are no speed are left out and said once.
    package func availableShutterSpeeds() async throws -> [CameraShutterSpeed] {
        let available = try await readAvailableShutterSpeeds()
        return Self.offered(available.candidates).map(\.setting)
    }

    /// The shutter speed the body reports now (`getShutterSpeed`, p. 104).
    package func currentShutterSpeed() async throws -> CameraShutterSpeed {
        let label = try await readShutterSpeed()
        guard let setting = Self.setting(forLabel: label) else {
            throw LegacySonyCameraError.operationFailed(
                operation: "getShutterSpeed", underlying: .unknownShutterLabel(label))
        }
        return setting
    }

    /// Sets the shutter speed with the body's own label for it and returns once the body reports that label back.
    ///
    /// setShutterSpeed answers before the body applied the value (p. 103), so it is read back with
    /// getShutterSpeed (or seen in a getEvent answer) for up to `shutterConfirmTimeout`, and sent again up to
    /// `shutterSetAttempts` times. A set answered with a transient error (1 "Any" now and then, 40401 "Camera Not
    /// Ready") is sent again with `setRetry`'s pauses, inside this call.
    package func setShutterSpeed(_ speed: CameraShutterSpeed) async throws {
        var candidates = settings.shutter?.candidates ?? []
        var label = Self.label(for: speed, in: candidates)
        if label == nil {
            // The list may have changed (or was never read in this session): read it once.
            candidates = try await readAvailableShutterSpeeds().candidates
            label = Self.label(for: speed, in: candidates)
        }
        guard let label else {
            throw LegacySonyCameraError.shutterSpeedNotOffered(requested: speed.description, available: candidates)
        }
        if settings.shutter?.current == label { return }
        var reported = settings.shutter?.current ?? "?"
        for _ in 0..<max(1, configuration.shutterSetAttempts) {
            try await sendShutterSpeed(label, candidates: candidates)
            if let confirmed = try await waitForShutterSpeed(label), confirmed == label { return }
            reported = settings.shutter?.current ?? reported
        }
        throw LegacySonyCameraError.shutterSpeedNotConfirmed(
            requested: label, reported: reported, attempts: max(1, configuration.shutterSetAttempts))
    }

    /// One setShutterSpeed, retried with `setRetry`'s pauses while the body answers a transient error.
    private func sendShutterSpeed(_ label: String, candidates: [String]) async throws {
        let policy = configuration.setRetry
        var attempt = 1
        while true {
            do {
                try await perform("setShutterSpeed \(label)") { client async throws(CameraRemoteAPIError) in
                    try await client.setShutterSpeed(label)
                }
                return
            } catch let error as CameraRemoteAPIError {
                if case let .api(code, _, _) = error, code.isTransient {
                    guard attempt < policy.maxAttempts else {
                        throw LegacySonyCameraError.shutterSpeedSetFailed(
                            requested: label, attempts: attempt, last: error)
                    }
                    try await clock.sleep(for: policy.delay(beforeRetry: attempt))
                    attempt += 1
                    continue
                }
                if case .api(.illegalArgument, _, _) = error {
                    throw LegacySonyCameraError.shutterSpeedNotOffered(requested: label, available: candidates)
                }
                throw Self.refusal(error, operation: "setShutterSpeed \(label)")
            }
        }
    }

    /// Reads the shutter speed back until it is `label` or `shutterConfirmTimeout` passed; returns the last
    /// value seen.
    private func waitForShutterSpeed(_ label: String) async throws -> String? {
        let watch = Stopwatch(clock: clock)
        var pauses = PollPauses(configuration.pollIntervals)
        var last: String?
        while true {
            // A getEvent answer may have shown it already.
            if settings.shutter?.current == label { return label }
            do {
                last = try await readShutterSpeed()
            } catch let error as LegacySonyCameraError where error.isTransient {
                // Busy applying it: look again.
            }
            if last == label { return label }
            guard watch.elapsed < configuration.shutterConfirmTimeout else { return last }
            try await clock.sleep(for: pauses.next())
        }
    }

    /// getShutterSpeed, kept as the current value.
    private func readShutterSpeed() async throws -> String {
        let label: String
        do {
            label = try await perform("getShutterSpeed") { client async throws(CameraRemoteAPIError) in
                try await client.getShutterSpeed()
            }
        } catch {
            throw Self.refusal(error, operation: "getShutterSpeed")
        }
        settings.shutter = AvailableSetting(current: label, candidates: settings.shutter?.candidates ?? [])
        return label
    }

    /// getAvailableShutterSpeed, kept as the current value and candidates.
    func readAvailableShutterSpeeds() async throws -> AvailableSetting {
        let available: AvailableSetting
        do {
            available = try await perform("getAvailableShutterSpeed") { client async throws(CameraRemoteAPIError) in
                try await client.getAvailableShutterSpeed()
            }
        } catch {
            throw Self.refusal(error, operation: "getAvailableShutterSpeed")
        }
        settings.shutter = available
        let unknown = RemoteShutterLabels(candidates: available.candidates).unknown
        if !unknown.isEmpty {
            note("the camera offers shutter labels hdrshoot cannot read: \(unknown.joined(separator: " "))")
        }
        return available
    }

    // MARK: - Labels

    /// The setting a body's label means, mapped by value onto the planner's scale (the 1/3-stop scale, else the
    /// 1/2-stop one, so `0.3"` is the 1/3 s stop); nil for a label that is no speed.
    static func setting(forLabel label: String) -> CameraShutterSpeed? {
        switch try? RemoteShutterSetting(label: label) {
        case .bulb?: return .bulb
        case let .timed(speed)?:
            let setting = RemoteShutterSetting.timed(speed)
            return .timed(setting.stop(on: .third) ?? setting.stop(on: .half) ?? speed)
        case nil: return nil
        }
    }

    /// The settings `candidates` offer, each with the body's own label, in the body's order.
    static func offered(_ candidates: [String]) -> [(setting: CameraShutterSpeed, label: String)] {
        var seen: Set<CameraShutterSpeed> = []
        return candidates.compactMap { label in
            guard let setting = setting(forLabel: label), seen.insert(setting).inserted else { return nil }
            return (setting, label)
        }
    }

    /// The body's label for `speed` among `candidates` (by value), nil when it is not offered.
    static func label(for speed: CameraShutterSpeed, in candidates: [String]) -> String? {
        offered(candidates).first { $0.setting == speed }?.label
    }
}
