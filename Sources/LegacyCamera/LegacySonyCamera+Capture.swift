import CameraRemoteAPI
import Exposure
import Shooting
import Timing

/// The release: actTakePicture (and awaitTakePicture after 40403), or BULB held between startBulbShooting and
/// stopBulbShooting on the injected clock.
extension LegacySonyCamera {
    /// Fires the shutter once and returns once the body answered the picture's postview URL (see
    /// `RemoteCamera.release`): the answer itself is the proof that it fired, and the picture waits (pending)
    /// until `nextImage` downloads it.
    ///
    /// With the body on BULB the shutter is held `exposure` on the injected clock; BULB needs a fixed ISO
    /// (bodies refuse it with Auto ISO), which is checked before `beforeRelease`. A body that answers "not
    /// ready" fired nothing (transient); once the call went out, a lost or silent link is connection-lost (the
    /// picture is looked for after the reconnect) and any other failure is permanent.
    package func release(
        exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void
    ) async throws -> Release {
        guard case .ready = state else { throw try lostOrNotConnected() }
        let holdsBulb = settings.shutter?.current == RemoteShutterSetting.bulb.label
        if holdsBulb { try await requireFixedISO() }
        try await beforeRelease()
        guard case .ready = state else { throw try lostOrNotConnected() }
        let exposureTime = Duration.seconds(exposure.numerator) / exposure.denominator
        // A Long Exposure NR dark frame as long as the exposure may follow from 1 s on.
        let darkFrame = exposureTime >= .seconds(1) ? exposureTime : .zero
        statusBroadcaster.publish(.exposing)
        let urls =
            holdsBulb
            ? try await holdBulb(for: exposureTime, limit: darkFrame + configuration.processingMargin)
            : try await takePicture(limit: exposureTime + darkFrame + configuration.processingMargin)
        for url in urls { pictures.report(url) }
        statusBroadcaster.publish(.saving)
        return Release(evidence: .imageWaiting, imagesWaiting: pictures.count)
    }

    /// The error for a call on a link that is not ready.
    func lostOrNotConnected() throws -> any Error {
        switch state {
        case let .lost(_, reason): reason
        default: LegacySonyCameraError.notConnected
        }
    }

    /// actTakePicture, then awaitTakePicture while the body answers 40403 (a long exposure still runs).
    private func takePicture(limit: Duration) async throws -> [String] {
        let watch = Stopwatch(clock: clock)
        let mark = pictures.reportedCount
        let outcome: TakePictureOutcome
        do {
            outcome = try await perform("actTakePicture") { client async throws(CameraRemoteAPIError) in
                try await client.actTakePicture()
            }
        } catch let error as CameraRemoteAPIError {
            // The body answered: "not ready" fired nothing; any other answer is a refusal.
            if case let .api(code, _, _) = error, code == .cameraNotReady || code == .serviceUnavailable {
                throw LegacySonyCameraError.busy(operation: "actTakePicture", underlying: error)
            }
            throw LegacySonyCameraError.operationFailed(operation: "actTakePicture", underlying: error)
        }
        switch outcome {
        case let .postview(urls):
            guard !urls.isEmpty else { throw LegacySonyCameraError.noPicture(operation: "actTakePicture") }
            return urls
        case .stillCapturing:
            return try await awaitPicture(since: mark, watch: watch, limit: limit)
        }
    }

    /// BULB: startBulbShooting, `exposure` on the clock (shortened by the test hook `timeScale`),
    /// stopBulbShooting (sent even when the wait is cancelled: the shutter is never left open), then the picture.
    private func holdBulb(for exposure: Duration, limit: Duration) async throws -> [String] {
        let mark = pictures.reportedCount
        do {
            try await perform("startBulbShooting") { client async throws(CameraRemoteAPIError) in
                try await client.startBulbShooting()
            }
        } catch let error as CameraRemoteAPIError {
            throw Self.refusal(error, operation: "startBulbShooting")
        }
        // The shutter is open from here: every failure is connection-lost or permanent.
        var cancelled = false
        do {
            try await clock.sleep(for: exposure / configuration.timeScale)
        } catch {
            cancelled = true
        }
        let link = try requireLink()
        callCount += 1
        // A task of its own, so a cancelled caller still closes the shutter.
        let stop = Task { () async -> CameraRemoteAPIError? in
            do throws(CameraRemoteAPIError) {
                try await link.client.stopBulbShooting()
                return nil
            } catch {
                return error
            }
        }
        if let error = await stop.value {
            if error.isConnectionLost || error.isTimeout || error.isClosed {
                let lost = LegacySonyCameraError.connectionLost(during: "stopBulbShooting", underlying: error)
                markLost(link.number, lost)
                throw lost
            }
            throw LegacySonyCameraError.operationFailed(operation: "stopBulbShooting", underlying: error)
        }
        if cancelled { throw CancellationError() }
        return try await awaitPicture(since: mark, watch: Stopwatch(clock: clock), limit: limit)
    }

    /// awaitTakePicture until the picture comes (40403 means: still exposing, ask again), within `limit` of
    /// `watch`'s start; a body that does not offer it is followed through getEvent instead.
    private func awaitPicture(since mark: Int, watch: Stopwatch, limit: Duration) async throws -> [String] {
        while watch.elapsed < limit {
            let outcome: TakePictureOutcome
            do {
                outcome = try await perform("awaitTakePicture") { client async throws(CameraRemoteAPIError) in
                    try await client.awaitTakePicture()
                }
            } catch let error as CameraRemoteAPIError {
                guard case let .api(code, _, _) = error, code == .noSuchMethod || code == .illegalState else {
                    throw LegacySonyCameraError.operationFailed(operation: "awaitTakePicture", underlying: error)
                }
                return try await reportedPicture(since: mark, watch: watch, limit: limit)
            }
            if case let .postview(urls) = outcome {
                guard !urls.isEmpty else { throw LegacySonyCameraError.noPicture(operation: "awaitTakePicture") }
                return urls
            }
        }
        throw LegacySonyCameraError.captureTimedOut(waited: limit)
    }

    /// Reads getEvent until it reports a picture not seen at `mark`.
    private func reportedPicture(since mark: Int, watch: Stopwatch, limit: Duration) async throws -> [String] {
        var pauses = PollPauses(configuration.pollIntervals)
        while watch.elapsed < limit {
            if pictures.reportedCount > mark, let newest = pictures.waiting.last { return [newest] }
            try await clock.sleep(for: pauses.next())
            try await pollEvent()
        }
        throw LegacySonyCameraError.captureTimedOut(waited: limit)
    }

    /// One getEvent without the long-poll flag (a snapshot), taken in.
    func pollEvent() async throws {
        let event: CameraEvent
        do {
            event = try await perform("getEvent") { client async throws(CameraRemoteAPIError) in
                try await client.getEvent(longPoll: false)
            }
        } catch {
            throw Self.refusal(error, operation: "getEvent")
        }
        absorb(event, atFirstConnect: false)
    }

    /// Refuses BULB with Auto ISO (`getIsoSpeedRate`, p. 109), before anything fires; a body that does not
    /// offer the read is let through.
    func requireFixedISO() async throws {
        guard availableAPIs.isEmpty || availableAPIs.contains("getIsoSpeedRate") else { return }
        let iso: String
        do {
            iso = try await perform("getIsoSpeedRate") { client async throws(CameraRemoteAPIError) in
                try await client.getIsoSpeedRate()
            }
        } catch let error as CameraRemoteAPIError {
            if case .api(.noSuchMethod, _, _) = error { return }
            throw Self.refusal(error, operation: "getIsoSpeedRate")
        }
        settings.isoSpeedRate = iso
        if Self.isAutoISO(iso) { throw LegacySonyCameraError.bulbNeedsFixedISO(current: iso) }
    }

    /// Whether an ISO label is Auto ISO (`AUTO`, `Auto`, `AUTO(100-6400)`).
    static func isAutoISO(_ label: String) -> Bool { label.uppercased().hasPrefix("AUTO") }
}
