import Exposure
import Foundation
import PTPIPCodec
import Shooting
import SonyProtocol
import Synchronization
import Timing

extension SonyCamera {
    /// Takes one picture and saves every image it produced under `destination`.
    ///
    /// Before the first frame of a shoot the focus is settled (`prepareFocus`). S1 down, S2 down, S2 up, S1 up
    /// (with BULB, S2 is held for `exposure` on the injected clock); then waits for ObjectAdded (0xC201) or
    /// 0xD215 >= 0x8001 (a body without events is polled), for at most the exposure, a Long Exposure NR dark
    /// frame and `processingMargin`; a release early in the session that shows no sign of capture is pressed
    /// once more (`confirmEarlyRelease`). Then fetches object 0xFFFFC001 (GetObjectInfo, then GetObject
    /// streamed to disk, fsynced in the background) until 0xD215 reads 0, and checks each image's own
    /// exposure time (EXIF): one that is not the frame's goes to `unmatched/`. Per frame that is 4 button
    /// presses, GetObjectInfo and GetObject; waiting costs no round trip when the body sends its events.
    ///
    /// The check that 0xD215 went back to 0 after the last download costs no round trip of its own when
    /// the body announced a 0xD215 change during the transfer: it rides on the next 0x9209 read (the
    /// next frame's shutter read-back, made a full read for it), or is made before the next release when
    /// no read comes first, or in `disconnect()`. An image found waiting then is fetched into the folder
    /// of the frame that made it before anything else happens, and is listed with the next frame.
    ///
    /// Images no capture of this session made (an earlier session ended between a release and the
    /// download: 0xD215 showed them at connect, or ObjectAdded announced them later) are fetched into
    /// `destination.earlier` first and returned as `recoveredImages`; that costs no round trip when there are
    /// none (after a reconnect the runner asks for them first, with `recoverInterruptedCapture`).
    /// When the first release of a session is refused as busy, the interrupted exposure may still be
    /// running or processing: its image is awaited (at most the exposure plus `processingMargin`), fetched,
    /// and the release is tried once more.
    ///
    /// `beforeRelease` runs once, beside the first half-press (S1 down): both are awaited before S2 goes
    /// down, so the caller's record costs no time of its own when it is quicker than that round trip. When it
    /// throws, S2 is never pressed, S1 is let go and its error is rethrown as is (see `RemoteCamera`).
    package func capture(
        exposure: ShutterSpeed, to destination: CaptureDestination,
        beforeRelease: @Sendable () async throws -> Void
    ) async throws -> CapturedFrame {
        try await refreshIfChanged()
        guard case .ready = state else { throw try lostOrNotConnected() }
        var recovered = try await recoverUnclaimedImages(into: destination.earlier)
        let leftovers = try await collectLeftoverImages()
        try requireShutterMode()
        try await prepareFocus()
        let usedSpeed = properties.shutterSpeed
        let holdsBulb = usedSpeed?.isBulb ?? false
        let exposureTime = Duration.seconds(exposure.numerator) / exposure.denominator
        var mark = session.images.mark
        var releasedAt = session.started.elapsed
        do {
            try await pressRelease(holdingFor: holdsBulb ? exposureTime : nil, after: beforeRelease)
        } catch let failure as ReleaseHookFailure {
            throw failure.underlying
        } catch let error as SonyCameraError {
            guard case .deviceBusy = error, !session.images.hasReleased,
                try await waitForUnclaimedImage(
                    timeout: exposureTime + noiseReductionTime(for: exposureTime) + configuration.processingMargin)
            else { throw error }
            let late = try await recoverUnclaimedImages(into: destination.earlier)
            guard !late.isEmpty else { throw error }
            recovered += late
            mark = session.images.mark
            releasedAt = session.started.elapsed
            // The hook returned during the refused release: this one has nothing more to wait for.
            try await pressRelease(holdingFor: holdsBulb ? exposureTime : nil, after: {})
        }
        session.images.noteRelease()
        publish(.saving)

        // After the exposure (held already for BULB), a Long Exposure NR dark frame as long, then processing.
        let waitLimit =
            (holdsBulb ? .zero : exposureTime) + noiseReductionTime(for: exposureTime) + configuration.processingMargin
        if releasedAt < configuration.startupReleaseSettle {
            try await confirmEarlyRelease(
                since: mark, exposure: holdsBulb ? .zero : exposureTime, holdingFor: holdsBulb ? exposureTime : nil)
        }
        guard try await waitForImage(since: mark, timeout: waitLimit) else {
            throw SonyCameraError.captureTimedOut(waited: waitLimit)
        }
        let images = try await fetchWaitingImages(
            to: destination, lastFetchedName: nil, announced: session.images.announcedImages(since: mark))
        session.images.claim(upTo: mark.objectsAdded + images.count)
        let expected: ExpectedExposure = holdsBulb ? .bulb(held: exposureTime) : .timed(usedSpeed?.speed ?? exposure)
        let (frameImages, unmatched) = try await attribute(images, to: expected)
        publish(.idle)
        guard !frameImages.isEmpty else {
            throw SonyCameraError.imageNotThisFrame(
                expected: expected.label, found: unmatched.compactMap { $0.exposure?.label },
                kept: unmatched.map(\.path))
        }
        return CapturedFrame(
            images: leftovers + frameImages, actualSpeed: Self.actualSpeed(of: frameImages, setting: usedSpeed),
            recoveredImages: recovered, unmatchedImages: unmatched)
    }

    /// Takes one picture with nothing to make durable before the release (tools and tests without a journal).
    package func capture(exposure: ShutterSpeed, to destination: CaptureDestination) async throws -> CapturedFrame {
        try await capture(exposure: exposure, to: destination, beforeRelease: {})
    }

    /// The speed a frame was shot at: what its image records (EXIF), else what the camera was set to.
    static func actualSpeed(of images: [SavedImage], setting: SonyShutterValue?) -> CameraShutterSpeed? {
        if let exposure = images.lazy.compactMap(\.exposure).first { return .timed(exposure) }
        return setting.flatMap(cameraSpeed)
    }

    /// After a reconnect: fetches the image of the release the broken link interrupted (see `RemoteCamera`).
    ///
    /// The connect-time dump says whether the buffer holds an image; when it does not, the interrupted
    /// exposure may still be running or processing, so ObjectAdded or 0xD215 is awaited (polled, and the link
    /// kept alive) for at most `waitingAtMost`. Nothing is released here.
    package func recoverInterruptedCapture(
        exposure: ShutterSpeed, to destination: CaptureDestination, waitingAtMost: Duration
    ) async throws -> CapturedFrame? {
        try await refreshIfChanged()
        guard case .ready = state else { throw try lostOrNotConnected() }
        if session.images.deferredCheck != .unclaimed, !session.images.hasUnclaimedAnnouncement {
            guard try await waitForUnclaimedImage(timeout: waitingAtMost) else { return nil }
        }
        let images = try await recoverUnclaimedImages(into: destination)
        let setting = properties.shutterSpeed
        let expected: ExpectedExposure =
            setting?.isBulb == true
            ? .bulb(held: Duration.seconds(exposure.numerator) / exposure.denominator)
            : .timed(setting?.speed ?? exposure)
        let (frameImages, unmatched) = try await attribute(images, to: expected)
        publish(.idle)
        guard !frameImages.isEmpty else { return nil }
        note("the image of \(exposure.label) taken before the connection dropped was recovered; it was not shot again")
        return CapturedFrame(
            images: frameImages, actualSpeed: Self.actualSpeed(of: frameImages, setting: setting),
            unmatchedImages: unmatched)
    }

    /// The battery level (0xD218) and the shots left on the card (0xD249) as the body reports them now (one
    /// change-only read first, when the link is up).
    package func mediaStatus() async -> MediaStatus {
        if case .ready = state { _ = try? await refreshProperties(full: false) }
        return MediaStatus(
            batteryPercent: properties.currentValue(of: .batteryRemaining)?.integerValue.map { Int($0) },
            remainingShots: properties.currentValue(of: .remainingShots)?.integerValue.map { Int($0) })
    }

    /// Messages for the photographer since the last call, each once.
    package func takeNotes() -> [String] {
        defer { pendingNotes.removeAll() }
        return pendingNotes
    }

    /// Queues a message for the photographer (shown once by the runner).
    func note(_ text: String) {
        pendingNotes.append(text)
    }

    /// A release made soon after the session started may have been ignored (several bodies ignore releases
    /// for ~3 s after connecting): when no sign of capture (ObjectAdded, 0xD215) came within the exposure
    /// plus `releaseSettle`, the shutter is pressed once more, no earlier than `startupReleaseSettle` into
    /// the session. It never fires twice: a body still exposing or processing answers that press busy, and
    /// the wait for the first release's image goes on.
    private func confirmEarlyRelease(
        since mark: ImageLedger.Mark, exposure: Duration, holdingFor bulb: Duration?
    ) async throws {
        if try await waitForImage(since: mark, timeout: exposure + configuration.releaseSettle) { return }
        let settle = session.started.remaining(of: configuration.startupReleaseSettle)
        if settle > .zero, try await waitForImage(since: mark, timeout: settle) { return }
        do {
            try await pressRelease(holdingFor: bulb, after: {})
            session.images.noteRelease()
            note("the camera ignored the first shutter release after connecting; it was pressed again")
        } catch let error as SonyCameraError {
            // Busy: the first release is exposing or processing after all; its image is awaited as usual.
            guard case .deviceBusy = error else { throw error }
        }
    }

    /// How long a Long Exposure NR dark frame after an exposure of `exposure` may take: as long as the exposure
    /// from 1 s on, unless the body reports NR off (0xD15B); bodies that do not report it are assumed to have it on.
    func noiseReductionTime(for exposure: Duration) -> Duration {
        guard exposure >= .seconds(1), longExposureNR != false else { return .zero }
        return exposure
    }

    /// Whether the body's Long Exposure NR (0xD15B) is on; nil when it does not report the setting.
    package var longExposureNR: Bool? {
        properties.currentValue(of: .longExposureNR)?.integerValue.map { $0 == 2 }
    }

    /// S1 down (beside `hook`), S2 down, S2 up (after `bulb` on the injected clock when holding BULB, shortened
    /// by the test hook `configuration.timeScale`), S1 up;
    /// on failure the half press is let go when the link still works.
    func pressRelease(holdingFor bulb: Duration?, after hook: @Sendable () async throws -> Void) async throws {
        // The buffer was read empty at the end of the last capture; an announcement of that is old news.
        session.changedHints.remove(SonyPropertyCode.shootingFileInfo.rawValue)
        try await pressHalfway(beside: hook)
        var s2Down = false
        do {
            if focusHandling == .everyFrame, let mode = properties.focusMode, mode.autofocuses {
                // No way to hold one focus: this frame focuses on its own before it fires.
                let result = try await awaitFocus()
                guard result == .focused else {
                    throw SonyCameraError.focusFailed(
                        mode: mode.name, waited: result == .notFocused ? nil : configuration.focusTimeout)
                }
            }
            try await press(.s2Button, .down)
            s2Down = true
            publish(.exposing)
            if let bulb { try await clock.sleep(for: bulb / configuration.timeScale) }
            try await press(.s2Button, .up)
            s2Down = false
        } catch {
            // Never leave the shutter or the half press held on a camera we still talk to; when the shoot was
            // abandoned (cancelled) mid-BULB, the release goes up at once, outside the cancelled task.
            let held = s2Down
            await Task { [self] in
                if held, isLinkUsable { try? await press(.s2Button, .up) }
                if isLinkUsable { try? await press(.s1Button, .up) }
            }.value
            if isLinkUsable { publish(.idle) }
            throw error
        }
        try await press(.s1Button, .up)
    }

    /// S1 down while `hook` runs in a child task; returns once both are done, and only when both succeeded.
    ///
    /// The hook's error wins (the release must not follow it): S1 is let go first when it went down. The
    /// press is never cancelled for the hook, and the hook is awaited even when the press failed.
    private func pressHalfway(beside hook: @Sendable () async throws -> Void) async throws {
        async let hookOutcome = Self.outcome(of: hook)
        let pressed: Result<Void, any Error>
        do {
            try await press(.s1Button, .down)
            pressed = .success(())
        } catch {
            pressed = .failure(error)
        }
        if case let .failure(error) = await hookOutcome {
            if case .success = pressed, isLinkUsable { try? await press(.s1Button, .up) }
            throw ReleaseHookFailure(underlying: error)
        }
        try pressed.get()
    }

    /// The hook's outcome as a value, so the half-press is awaited whatever the hook does.
    private static func outcome(of hook: @Sendable () async throws -> Void) async -> Result<Void, any Error> {
        do {
            try await hook()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Waits at most `timeout` for an image no capture of this session explains (an ObjectAdded event, or a
    /// read of 0xD215 showing one); true when one came.
    private func waitForUnclaimedImage(timeout: Duration) async throws -> Bool {
        let watch = Stopwatch(clock: clock)
        var polls = PollBackoff(configuration.pollIntervals)
        while !session.images.hasUnclaimedAnnouncement {
            guard case .ready = state else { throw try lostOrNotConnected() }
            if properties.shootingFileInfo?.hasImages == true {
                session.images.deferredCheck = .unclaimed
                return true
            }
            let generation = doorbell.generation
            let left = watch.remaining(of: timeout)
            guard left > .zero, try await waitForSignal(after: generation, timeout: left, polls: &polls) else {
                return false
            }
        }
        return true
    }

    /// Fetches into `destination` every image waiting in the buffer that no capture of this session made,
    /// reading 0xD215 (full 0x9209) after each download until it reads 0; returns the images fetched.
    ///
    /// Such images are known from the connect-time dump (`.unclaimed`) or, when the earlier exposure was
    /// still processing at connect, from an ObjectAdded event no capture explains (one full read then
    /// says whether it waits). With neither, this costs no round trip.
    func recoverUnclaimedImages(into destination: CaptureDestination) async throws -> [SavedImage] {
        if session.images.deferredCheck == nil, session.images.hasUnclaimedAnnouncement {
            let announced = session.images.objectsAdded
            try await refreshProperties(full: true)
            session.images.claim(upTo: announced)
            if properties.shootingFileInfo?.hasImages == true { session.images.deferredCheck = .unclaimed }
        }
        guard session.images.deferredCheck == .unclaimed else { return [] }
        var recovered: [SavedImage] = []
        var lastFetchedName: String?
        while true {
            let fetched = try await fetchWaitingImages(to: destination, lastFetchedName: lastFetchedName)
            recovered += fetched
            // After a download the check is pending; no download means the buffer already read empty.
            guard !fetched.isEmpty, case let .pending(_, name) = session.images.deferredCheck else {
                session.images.deferredCheck = nil
                break
            }
            lastFetchedName = name
            let announced = session.images.objectsAdded
            try await refreshProperties(full: false)
            session.images.claim(upTo: announced)
            guard session.images.deferredCheck != nil else { break }
        }
        return recovered
    }

    /// Settles the buffer check the last capture deferred: reads 0x9209 (full) if no read did yet, and
    /// fetches what still waits into that capture's folder. Returns the images fetched.
    func collectLeftoverImages() async throws -> [SavedImage] {
        if case .pending = session.images.deferredCheck { try await refreshProperties(full: false) }
        guard case let .imagesWaiting(destination, lastFetchedName) = session.images.deferredCheck else {
            if session.images.deferredCheck != .unclaimed { session.images.deferredCheck = nil }
            return []
        }
        let images = try await fetchWaitingImages(to: destination, lastFetchedName: lastFetchedName)
        if case .imagesWaiting = session.images.deferredCheck { session.images.deferredCheck = nil }
        return images
    }

    /// Whether the link can still carry a request (not lost, not closed).
    var isLinkUsable: Bool {
        switch state {
        case .starting, .ready: true
        case .disconnected, .lost: false
        }
    }

    /// The reason the link is unusable.
    func lostOrNotConnected() throws -> SonyCameraError {
        if case let .lost(_, reason) = state { return reason }
        return .notConnected
    }

    /// One button press or release with SDIO_ControlDevice (0x9207).
    func press(_ button: SonyControlCode, _ position: SonyButtonState) async throws {
        let name = button == .s1Button ? "S1" : "S2"
        try await run(
            .sdioControlDevice, [UInt32(button.rawValue)], sending: position.dataPhase,
            during: "\(name) \(position == .down ? "down" : "up") (0x9207)")
    }

    /// Returns true once the camera showed an image since `mark` (event 0xC201, or 0xD215 >= 0x8001 in a
    /// read: after a change event for it, a poll of a body without events, or a keepalive read), false
    /// when `timeout` passed without one (after one last read, for bodies that announce nothing).
    func waitForImage(since mark: ImageLedger.Mark, timeout: Duration) async throws -> Bool {
        let watch = Stopwatch(clock: clock)
        var polls = PollBackoff(configuration.pollIntervals)
        while true {
            let generation = doorbell.generation
            if session.images.showedImage(since: mark) { return true }
            if session.changedHints.contains(SonyPropertyCode.shootingFileInfo.rawValue)
                || session.changedHints.contains(0)
            {
                // Bodies announce 0xD215 and ObjectAdded together; give the latter a moment to arrive so
                // the usual case costs no read.
                if try await waitForEvent(after: generation, timeout: configuration.eventGrace),
                    session.images.showedImage(since: mark)
                {
                    return true
                }
                try await refreshProperties(full: false)
                continue
            }
            guard case .ready = state else { throw try lostOrNotConnected() }
            let left = watch.remaining(of: timeout)
            guard left > .zero else { return false }
            if try await !waitForSignal(after: generation, timeout: left, polls: &polls) {
                // Last chance for a body that sent no event at all.
                try await refreshProperties(full: false)
                return session.images.showedImage(since: mark)
            }
        }
    }

    /// Fetches object 0xFFFFC001 once per image the body announced since `addedBefore` (at least once);
    /// every image is saved or the call throws (nothing is skipped silently). Whether 0xD215 is back to 0
    /// afterwards is left to the next 0x9209 read (`session.images.deferredCheck`), which then fetches what
    /// still waits.
    private func fetchWaitingImages(
        to destination: CaptureDestination, lastFetchedName: String?, announced: Int = 0
    ) async throws -> [SavedImage] {
        let watch = Stopwatch(clock: clock)
        var saved: [SavedImage] = []
        var lastFetchedName = lastFetchedName
        while true {
            let info: ObjectInfo?
            do {
                info = try await objectInfo()
            } catch SonyCameraError.noImageAtHandle(_) where lastFetchedName != nil {
                // 0xD215 lags behind a completed download on some bodies: nothing is left to fetch.
                return saved
            }
            if let info, !info.filename.isEmpty, info.filename == lastFetchedName {
                // The body still offers the image we just took: wait for it to move on (or give up).
                let generation = doorbell.generation
                try await refreshProperties(full: true)
                if properties.shootingFileInfo?.hasImages != true { return saved }
                let left = watch.remaining(of: configuration.transferTimeout)
                let rang = left > .zero ? try await waitForEvent(after: generation, timeout: left) : false
                if !rang {
                    throw SonyCameraError.imagesStillWaiting(
                        fileInfo: properties.shootingFileInfo ?? .empty, waited: configuration.transferTimeout)
                }
                try await refreshProperties(full: true)
                if properties.shootingFileInfo?.hasImages != true { return saved }
                continue
            }
            let image = try await download(info, to: destination)
            saved.append(image)
            lastFetchedName = info?.filename ?? image.fileName
            session.images.deferredCheck = .pending(destination, lastFetchedName: lastFetchedName ?? image.fileName)
            if saved.count >= announced { return saved }
            if watch.elapsed > configuration.transferTimeout {
                throw SonyCameraError.imagesStillWaiting(
                    fileInfo: SonyShootingFileInfo(imagesWaiting: announced - saved.count),
                    waited: configuration.transferTimeout)
            }
        }
    }
}

/// The caller's `beforeRelease` failed (nothing was released); kept apart from the camera's own errors so
/// no busy handling applies to it, and unwrapped before `capture` rethrows it.
struct ReleaseHookFailure: Error {
    /// The hook's error, rethrown unchanged.
    let underlying: any Error
}

/// Counts bytes written by a data sink (which runs outside the actor).
final class ByteCounter: Sendable {
    private let count = Mutex(0)

    /// The bytes counted so far.
    var value: Int { count.withLock { $0 } }

    /// Adds `bytes`.
    func add(_ bytes: Int) { count.withLock { $0 += bytes } }
}
