import Exposure
import Foundation
import PTPIPCodec
import Shooting
import SonyProtocol
import Timing

/// Capture first, download behind: a release confirmed by the body, and the body's buffer fetched one file
/// at a time, so the runner fires the whole bracket at the speed of the shutter and downloads behind it.
extension SonyCamera {
    /// Fires the shutter once and returns when the body shows that it fired (see `RemoteCamera.release`).
    ///
    /// S1 down (beside `beforeRelease`), S2 down, S2 up (held for `exposure` on the injected clock with BULB),
    /// S1 up; then the body must show the release within the exposure, a Long Exposure NR dark frame and
    /// `processingMargin`: a captured event (0xC206, reference p. 676), an image announced (0xC201) or its
    /// count of waiting images (0xD215, pp. 448-449) above the count before the release, or, for a body that
    /// keeps its images on the card, its shots-left count (0xD249) dropping. The OK to S2 proves nothing
    /// (p. 114). A release that showed nothing in all that time certainly fired nothing: early in the session,
    /// before any release fired (bodies ignore releases for ~3 s after connecting), it is pressed once more; otherwise it throws
    /// `releaseIgnored` (a full buffer is the usual cause: the runner downloads, then tries again).
    package func release(
        exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void
    ) async throws -> Release {
        try await release(exposure: exposure, beforeRelease: beforeRelease, whileUnconfirmed: {})
    }

    /// `release(exposure:beforeRelease:)`; when the release shows no sign of firing past its exposure and
    /// `fetchBehindGrace` (or twice the slowest evidence of the session), `whileUnconfirmed` runs beside the rest of
    /// the evidence window (the runner fetches a file meanwhile: this actor takes its calls while it waits, and the
    /// files fetched since the press count toward 0xD215's evidence).
    package func release(
        exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void,
        whileUnconfirmed: @Sendable () async -> Void
    ) async throws -> Release {
        try await refreshIfChanged()
        guard case .ready = state else { throw try lostOrNotConnected() }
        try requireShutterMode()
        try await prepareFocus()
        let holdsBulb = properties.shutterSpeed?.isBulb ?? false
        let exposureTime = Duration.seconds(exposure.numerator) / exposure.denominator
        let held = holdsBulb ? exposureTime : nil
        let before = releaseMark(exposure: holdsBulb ? .zero : exposureTime)
        // A count a download may have lowered since it was read is no count to compare with.
        session.waitingBeforeRelease = reportsBuffer && !session.downloadedSinceRead ? before.waiting : nil
        let releasedAt = session.started.elapsed
        do {
            try await pressRelease(holdingFor: held, after: beforeRelease)
        } catch let failure as ReleaseHookFailure {
            throw failure.underlying
        }
        session.images.noteRelease()
        session.bufferUnread = true
        publish(.saving)
        let limit =
            (holdsBulb ? .zero : exposureTime) + noiseReductionTime(for: exposureTime) + configuration.processingMargin
        if let evidence = try await waitForRelease(since: before, timeout: limit, beside: whileUnconfirmed) {
            try await awaitDarkFrame(after: evidence, exposure: exposureTime)
            return try await confirmed(evidence)
        }
        // Only the first releases of a session may be ignored for its start-up (libgphoto2 waits once, after
        // connecting): once a release fired, a later one that shows nothing was refused for another reason (a
        // full buffer, usually), and waiting out the start-up settle for it only keeps the camera on the tripod.
        guard releasedAt < configuration.startupReleaseSettle, session.releasesConfirmed == 0 else {
            throw SonyCameraError.releaseIgnored(waited: limit)
        }
        // Early in the session, and certain that nothing fired: press once more.
        let settle = session.started.remaining(of: configuration.startupReleaseSettle)
        if settle > .zero, let evidence = try await waitForRelease(since: before, timeout: settle) {
            return try await confirmed(evidence)
        }
        do {
            try await pressRelease(holdingFor: held, after: {})
        } catch SonyCameraError.deviceBusy {
            // Busy: the first press is exposing or processing after all. It is never pressed a third time; its
            // evidence is awaited as for any release.
            guard let evidence = try await waitForRelease(since: before, timeout: limit) else {
                throw SonyCameraError.releaseIgnored(waited: limit)
            }
            return try await confirmed(evidence)
        }
        session.images.noteRelease()
        note("the camera ignored the first shutter release after connecting; it was pressed again")
        guard let evidence = try await waitForRelease(since: before, timeout: limit) else {
            throw SonyCameraError.releaseIgnored(waited: limit)
        }
        return try await confirmed(evidence)
    }

    /// After a release confirmed by its captured event (the shutter closed), waits out a Long Exposure NR dark
    /// frame, during which the body refuses the next release: as long as the exposure when the body reports NR
    /// on (0xD15B), until this frame's image is announced (at most the dark frame and the processing margin) when
    /// it does not say, and not at all when NR is off or the exposure is shorter than 1 s.
    private func awaitDarkFrame(after evidence: ReleaseEvidence, exposure: Duration) async throws {
        guard evidence == .capturedEvent else { return }
        let darkFrame = noiseReductionTime(for: exposure)
        guard darkFrame > .zero else { return }
        if longExposureNR == true {
            // On the test hook the body's dark frame is as much shorter as its exposure.
            try await clock.sleep(for: darkFrame / configuration.timeScale)
            return
        }
        let mark = releaseMark()
        _ = try await waitForImage(since: mark, timeout: darkFrame + configuration.processingMargin)
    }

    /// Waits at most `timeout` for an image announced (0xC201) or counted (0xD215) after `mark`.
    private func waitForImage(since mark: ReleaseMark, timeout: Duration) async throws -> Bool {
        let watch = Stopwatch(clock: clock)
        var polls = PollBackoff(configuration.pollIntervals)
        while true {
            let generation = doorbell.generation
            if session.images.objectsAdded > mark.objectsAdded { return true }
            if let waiting = properties.shootingFileInfo?.imagesWaiting, waiting > mark.waiting { return true }
            if session.changedHints.contains(SonyPropertyCode.shootingFileInfo.rawValue)
                || session.changedHints.contains(0)
            {
                try await refreshProperties(full: false)
                continue
            }
            let left = watch.remaining(of: timeout)
            guard left > .zero else { return false }
            if try await !waitForSignal(after: generation, timeout: left, polls: &polls) { return false }
        }
    }

    /// Whether the body's captured event (0xC206) is the only proof of a release to trust: it sent one in this
    /// session. Images announced then may be earlier frames' (they process behind the shutter), so they prove
    /// nothing about this release. Listing 0xC206 in DeviceInfo is a promise hdrshoot may use, never one it
    /// depends on: a body that lists it and never sends it (the real RX100M7 lists it; whether every body and
    /// mode sends it over Wi-Fi is unknown) is confirmed by any other evidence.
    private var confirmsByCapturedEvent: Bool {
        session.bodySendsEvents && session.images.capturedEvents > 0
    }

    /// What the body showed so far: the counts a release must move.
    private func releaseMark(exposure: Duration? = nil) -> ReleaseMark {
        ReleaseMark(
            objectsAdded: session.images.objectsAdded, capturedEvents: session.images.capturedEvents,
            waiting: properties.shootingFileInfo?.imagesWaiting ?? 0,
            shotsLeft: properties.currentValue(of: .remainingShots)?.integerValue, filesFetched: session.filesFetched,
            exposure: exposure)
    }

    /// The release record for `evidence`, with the buffer count as last read.
    private func confirmed(_ evidence: ReleaseEvidence) async throws -> Release {
        session.releasesConfirmed += 1
        return Release(evidence: evidence, imagesWaiting: properties.shootingFileInfo?.imagesWaiting)
    }

    /// `waitForRelease(since:timeout:)`, running `whileUnconfirmed` beside the part of the wait after the exposure
    /// and `fetchBehindGrace` when the release has shown nothing by then.
    private func waitForRelease(
        since mark: ReleaseMark, timeout: Duration, beside whileUnconfirmed: @Sendable () async -> Void
    ) async throws -> ReleaseEvidence? {
        let watch = Stopwatch(clock: clock)
        // At least twice the slowest evidence of this session (a loaded machine or a slow link answers late).
        let grace = (mark.exposure ?? .zero) + max(configuration.fetchBehindGrace, session.slowestEvidence * 2)
        guard grace < timeout else { return try await waitForRelease(since: mark, timeout: timeout) }
        if let evidence = try await waitForRelease(since: mark, timeout: grace) {
            session.slowestEvidence = max(session.slowestEvidence, watch.elapsed - (mark.exposure ?? .zero))
            noteEvidence(after: watch.elapsed - (mark.exposure ?? .zero))
            return evidence
        }
        async let meanwhile: Void = whileUnconfirmed()
        let evidence: ReleaseEvidence?
        do {
            evidence = try await waitForRelease(since: mark, timeout: timeout - grace)
        } catch {
            await meanwhile
            throw error
        }
        await meanwhile
        // What was fetched meanwhile may have answered the last question late: ask once more.
        var late = evidence
        if late == nil { late = try await waitForRelease(since: mark, timeout: .zero) }
        if late != nil { noteEvidence(after: watch.elapsed - (mark.exposure ?? .zero)) }
        return late
    }

    /// Keeps `latency` (how long past its exposure a confirmed release took to show it) when it is the longest of
    /// the session.
    private func noteEvidence(after latency: Duration) {
        session.longestEvidence = max(session.longestEvidence ?? .zero, max(latency, .zero))
    }

    /// The longest a confirmed release of this session took, past its exposure, to show that it fired (see
    /// `RemoteCamera.evidenceLatency`); nil before any release showed it through the runner's release.
    package func evidenceLatency() async -> Duration? {
        session.longestEvidence
    }

    /// Waits at most `timeout` for the body to show a release since `mark`; nil when it showed none (after one
    /// last read, for bodies that announce nothing).
    private func waitForRelease(since mark: ReleaseMark, timeout: Duration) async throws -> ReleaseEvidence? {
        let watch = Stopwatch(clock: clock)
        var polls = PollBackoff(configuration.pollIntervals)
        while true {
            let generation = doorbell.generation
            if let evidence = evidence(since: mark) { return evidence }
            if session.changedHints.contains(SonyPropertyCode.shootingFileInfo.rawValue)
                || session.changedHints.contains(SonyPropertyCode.remainingShots.rawValue)
                || session.changedHints.contains(0)
            {
                try await refreshProperties(full: false)
                continue
            }
            guard case .ready = state else { throw try lostOrNotConnected() }
            let left = watch.remaining(of: timeout)
            guard left > .zero else { return nil }
            if try await !waitForSignal(after: generation, timeout: left, polls: &polls) {
                try await refreshProperties(full: false)
                return evidence(since: mark)
            }
        }
    }

    /// How the body showed a release since `mark`, if it did.
    private func evidence(since mark: ReleaseMark) -> ReleaseEvidence? {
        if session.images.capturedEvents > mark.capturedEvents { return .capturedEvent }
        if confirmsByCapturedEvent { return nil }
        if session.images.objectsAdded > mark.objectsAdded { return .imageWaiting }
        if let waiting = properties.shootingFileInfo?.imagesWaiting,
            waiting + (session.filesFetched - mark.filesFetched) > mark.waiting
        {
            return .imageWaiting
        }
        if let before = mark.shotsLeft, let now = properties.currentValue(of: .remainingShots)?.integerValue,
            now < before
        {
            return .shotsLeft
        }
        return nil
    }

    // MARK: - The buffer

    /// Fetches the oldest file waiting in the body's buffer into `destination` (see `RemoteCamera.nextImage`):
    /// 0xD215 says whether one waits (read again after every download, p. 48: "the number of images times");
    /// GetObjectInfo and GetObject (or GetPartialObject) of 0xFFFFC001 fetch it. When the buffer is empty,
    /// waits at most `waitingAtMost` for an image to arrive (announced by 0xC201 or 0xD215).
    package func nextImage(to destination: CaptureDestination, waitingAtMost: Duration) async throws -> SavedImage? {
        try await refreshIfChanged()
        guard case .ready = state else { throw try lostOrNotConnected() }
        if reportsBuffer,
            session.bufferUnread || session.changedHints.contains(SonyPropertyCode.shootingFileInfo.rawValue)
        {
            try await refreshProperties(full: false)
            session.bufferUnread = false
        }
        let wait = Stopwatch(clock: clock)
        var probes = PollBackoff(configuration.pollIntervals)
        var info: ObjectInfo?
        while true {
            if !bufferHoldsImages {
                guard try await waitForBufferedImage(timeout: wait.remaining(of: waitingAtMost)) else {
                    publish(.idle)
                    return nil
                }
            }
            let nothingNew: Bool
            do {
                info = try await objectInfo()
                nothingNew =
                    !reportsBuffer
                    && info.map { !$0.filename.isEmpty && $0.filename == session.lastDownloadedName }
                        == true
            } catch SonyCameraError.noImageAtHandle(_) {
                session.bufferUnread = true
                guard !reportsBuffer else {
                    // 0xD215 lags behind a completed download on some bodies: nothing waits now, but the image of a
                    // release may still be processing (a Long Exposure NR dark frame, a short processing time), so
                    // it is awaited within what is left of the wait, never given up on at once (a frame taken for
                    // lost is fired again). Re-read 0xD215 (the lag lasts one read) and wait for it to count one.
                    let left = wait.remaining(of: waitingAtMost)
                    guard left > .zero else {
                        publish(.idle)
                        return nil
                    }
                    let generation = doorbell.generation
                    try await refreshProperties(full: false)
                    session.bufferUnread = false
                    if bufferHoldsImages {
                        // Still claimed after a fresh read: a poll pause before asking again, never a busy loop.
                        _ = try await waitForPause(after: generation, timeout: left, polls: &probes)
                    }
                    continue
                }
                nothingNew = true
            }
            guard nothingNew else { break }
            // A body without 0xD215, asked on the chance, has nothing new (no object, or the file just fetched):
            // an image of a release may still be processing, so it is awaited within what is left of the wait
            // (an announcement, or the next poll pause of a body without events), then asked again.
            session.bufferUnknown = false
            let left = wait.remaining(of: waitingAtMost)
            guard left > .zero else {
                publish(.idle)
                return nil
            }
            _ = try await waitForPause(after: doorbell.generation, timeout: left, polls: &probes)
        }
        if let info, !info.filename.isEmpty, info.filename == session.lastDownloadedName {
            // The body still offers the file just taken: its 0xD215 lags. It is given `transferTimeout` to move
            // on (re-read after every event or poll), and the error says how long it really had.
            let watch = Stopwatch(clock: clock)
            var polls = PollBackoff(configuration.pollIntervals)
            while true {
                try await refreshProperties(full: true)
                guard properties.shootingFileInfo?.hasImages == true else {
                    session.bufferUnread = true
                    return nil
                }
                let generation = doorbell.generation
                let left = watch.remaining(of: configuration.transferTimeout)
                guard left > .zero, try await waitForPause(after: generation, timeout: left, polls: &polls) else {
                    throw SonyCameraError.imagesStillWaiting(
                        fileInfo: properties.shootingFileInfo ?? .empty, waited: watch.elapsed)
                }
                if let next = try await objectInfo(), next.filename != session.lastDownloadedName {
                    return try await fetch(next, to: destination)
                }
            }
        }
        return try await fetch(info, to: destination)
    }

    /// Downloads the image `info` describes and notes it fetched.
    private func fetch(_ info: ObjectInfo?, to destination: CaptureDestination) async throws -> SavedImage {
        let image = try await download(info, to: destination)
        session.lastDownloadedName = info?.filename ?? image.fileName
        session.downloadedSinceRead = true
        session.filesFetched += 1
        if reportsBuffer {
            session.images.claim(upTo: session.images.objectsAdded)
        } else {
            // Without 0xD215 the announcements are the count of what waits: one is explained per download.
            session.images.claimOne()
        }
        session.bufferUnread = true
        return image
    }

    /// The files 0xD215 counts now (read afresh) and counted just before the last release was pressed, when that
    /// count was current (see `RemoteCamera.bufferCount`); nil when the body does not report 0xD215.
    package func bufferCount() async throws -> BufferCount? {
        guard reportsBuffer else { return nil }
        guard case .ready = state else { throw try lostOrNotConnected() }
        try await refreshProperties(full: false)
        guard let now = properties.shootingFileInfo?.imagesWaiting else { return nil }
        return BufferCount(now: now, beforeLastRelease: session.waitingBeforeRelease)
    }

    /// Whether the body reports its buffer (0xD215); one without it announces its images by events only.
    var reportsBuffer: Bool { properties[.shootingFileInfo] != nil }

    /// Whether an image waits in the buffer as far as the body said: 0xD215, or, for a body without it, an
    /// announcement no download explains yet; a body without either is asked on the chance (GetObjectInfo
    /// answers "no object" when nothing waits), after every release (the per-frame path).
    private var bufferHoldsImages: Bool {
        if reportsBuffer { return properties.shootingFileInfo?.hasImages == true }
        if session.bufferUnknown { return true }
        if session.bodySendsEvents { return session.images.hasUnclaimedAnnouncement }
        return session.images.releases > session.images.objectsClaimed
    }

    /// Waits at most `timeout` for the buffer to hold an image; true when one waits.
    ///
    /// What is already announced is read before any wait: an ObjectAdded or a 0xD215 change that came in while
    /// the read before this wait was on the wire (events and answers travel on two connections, so a body's
    /// announcement can overtake the answer of a read that did not count it yet) rang its bell before this wait
    /// began, and waiting for the next ring would wait out the whole timeout for an image that is there and
    /// shoot the frame again. The bell's generation is taken before each read, so a ring during it is not lost.
    private func waitForBufferedImage(timeout: Duration) async throws -> Bool {
        let watch = Stopwatch(clock: clock)
        var polls = PollBackoff(configuration.pollIntervals)
        var generation = doorbell.generation
        var lookFirst = true
        while !bufferHoldsImages {
            guard case .ready = state else { throw try lostOrNotConnected() }
            if !lookFirst {
                let left = watch.remaining(of: timeout)
                guard left > .zero else { return false }
                if try await !waitForSignal(after: generation, timeout: left, polls: &polls) { return false }
            }
            lookFirst = false
            generation = doorbell.generation
            if session.changedHints.contains(SonyPropertyCode.shootingFileInfo.rawValue)
                || session.changedHints.contains(0) || session.images.hasUnclaimedAnnouncement
            {
                let announcedBefore = session.images.objectsAdded
                try await refreshProperties(full: false)
                // A read of 0xD215 explains every announcement made before it (one that overtook its answer is
                // read again after the ring); without 0xD215 they count what waits.
                if reportsBuffer { session.images.claim(upTo: announcedBefore) }
            }
        }
        return true
    }

    /// Moves a fetched file (after its background fsync) into `folder` as `name`, durably, never over a file.
    package func move(_ image: SavedImage, toFolder folder: URL, name: String) async throws -> SavedImage {
        try await awaitSync(of: image.path)
        let moved = try await ImageFile.move(path: image.path, toFolder: folder.path, name: name)
        var record = image
        record.fileName = moved.fileName
        record.path = moved.path
        return record
    }

    /// Asks the body to send only the JPEG of each shot (the RAW stays on its card): 0xD269 RAW+J PC Save Image to
    /// "JPEG only" (pp. 491-492), and 0xD268 Still Image Trans Size to "Small Size JPEG" (p. 491) where the body
    /// has them. Returns what it set, as a person reads it; empty when the body has neither setting.
    package func sendJPEGOnly() async throws -> [String] {
        var done: [String] = []
        if properties.currentValue(of: .rawJPEGPCSaveImage) != nil,
            try await setAndConfirm(.rawJPEGPCSaveImage, to: .uint8(0x02), during: "RAW+J PC Save Image (0xD269)")
        {
            done.append("RAW+J PC Save Image: JPEG only")
        }
        if properties.currentValue(of: .stillImageTransSize) != nil,
            try await setAndConfirm(.stillImageTransSize, to: .uint8(0x02), during: "Still Image Trans Size (0xD268)")
        {
            done.append("transfer size: small JPEG")
        }
        return done
    }

    /// The body's save destination (0xD222, p. 459), small-JPEG transfer (0xD268, p. 491) and RAW+JPEG
    /// transfer choice (0xD269, pp. 491-492), where it reports them.
    package func transferSettings() -> TransferSettings {
        var settings = TransferSettings()
        switch properties.currentValue(of: .saveDestination)?.integerValue {
        case 0x0001?: settings.destination = .host
        case 0x0010?: settings.destination = .camera
        case 0x0011?: settings.destination = .hostAndCamera
        default: break
        }
        if let size = properties.currentValue(of: .stillImageTransSize)?.integerValue {
            settings.smallJPEG = size == 0x02
        }
        switch properties.currentValue(of: .rawJPEGPCSaveImage)?.integerValue {
        case 0x01?: settings.rawJPEGSent = "RAW & JPEG"
        case 0x02?: settings.rawJPEGSent = "JPEG only"
        case 0x03?: settings.rawJPEGSent = "RAW only"
        case 0x04?: settings.rawJPEGSent = "RAW & HEIF"
        case 0x05?: settings.rawJPEGSent = "HEIF only"
        default: break
        }
        return settings
    }
}

/// The counts a release must move, taken before it.
struct ReleaseMark: Sendable {
    /// ObjectAdded events so far.
    let objectsAdded: Int
    /// Captured events (0xC206) so far.
    let capturedEvents: Int
    /// Files waiting in the buffer (0xD215) as last read.
    let waiting: Int
    /// Shots left on the card (0xD249), when the body reports it.
    let shotsLeft: Int64?
    /// Files fetched from the buffer in this session so far (a fetch lowers 0xD215 as a release raises it).
    let filesFetched: Int
    /// The release's exposure, when the mark is a release's.
    let exposure: Duration?
}
