import Exposure
import Foundation

/// How a download pass ended.
enum DownloadOutcome: Sendable, Equatable {
    /// The body's buffer reads empty and every waiting frame is settled (saved, or back to be shot again).
    case drained
    /// A stop or a cancellation came between two frames' files: what is left stays in the camera.
    case stopped
    /// The files asked for arrived (room for the next release); the rest waits in the camera.
    case madeRoom
}

extension BracketRunner {
    /// Downloads what waits in the body's buffer, oldest first, until it reads empty (reference pp. 47-48),
    /// filing every file under the frame its own EXIF says it is (`DownloadQueue`). Complete frames are
    /// recorded saved as they complete; files of no waiting frame go to `unmatched/`; a frame whose image never
    /// came is put back to be shot again (up to `maxVanishedReleases` times).
    ///
    /// A stop during the downloads (or a second stop) or a cancellation is honoured only between frames (never
    /// between the JPEG and the RAW of a pair): frames still waiting stay "in the camera" for `resume`.
    ///
    /// With `files`, it returns `.madeRoom` once that many files arrived: a body whose buffer size is learned gets
    /// only the room its next release needs, and the rest downloads behind the next frames.
    func downloadAll(files: Int? = nil) async throws -> DownloadOutcome {
        let camera = self.camera
        var arrivedFiles = 0
        while true {
            if let files, arrivedFiles >= files { return .madeRoom }
            let target = progress.queue.likelyNext
            if Task.isCancelled || (controls.stop == .leavingImagesInCamera), target.map({ $0.images.isEmpty }) ?? true
            {
                try await settle(DownloadQueue.Settled(complete: progress.queue.takeFramesWithFiles()))
                return .stopped
            }
            let folderPosition = target?.position ?? lastPosition
            enterDownloading(target?.position)
            if let target, target.images.isEmpty {
                report(.downloading, at: target.position, setting: target.setting)
            }
            let destination = configuration.destination(for: folderPosition)
            let wait = target.map { waitForImage(of: $0) } ?? .zero
            let arrived = try await withBusyRetry(at: folderPosition, phase: .downloading) {
                try await camera.nextImage(to: destination, waitingAtMost: wait)
            }
            guard let image = arrived else {
                try await settle(progress.queue.drained())
                return .drained
            }
            arrivedFiles += 1
            emit(.fileDownloaded(fileName: image.fileName, bytes: image.byteCount))
            await reportCameraNotes()
            var settled = progress.queue.arrived(image)
            switch settled.verdict {
            case .frame(let position)?:
                if position != folderPosition {
                    // The body skipped a frame (its image never came): this file is a later frame's.
                    let folder = configuration.destination(for: position).directory
                    let moved = try await camera.move(image, toFolder: folder, name: image.fileName)
                    progress.queue.replaceLastFile(of: position, with: moved)
                }
            case .unmatched(let reason)?:
                let unmatched = try await setApart(image, in: destination, because: reason)
                progress.unmatchedByFrame[folderPosition, default: []].append(unmatched)
            case nil:
                break
            }
            settled.verdict = nil
            try await settle(settled)
        }
    }

    /// Before anything is fetched on a resume: the images a killed process wrote into the set folders without
    /// recording them are filed under the frames waiting for them, each by its own EXIF as if just downloaded
    /// (the camera no longer holds them: it lets an image go once its last byte was sent), and the camera
    /// deletes the partial files there. A whole file no waiting frame takes is left where it is.
    func adoptFilesLeftBehind(known: Set<String>) async throws {
        guard configuration.downloads, let first = progress.queue.waiting.map(\.position).min() else { return }
        let sets = Set(plan.positions.lazy.map(\.set).filter { $0 >= first.set }).sorted()
        var files: [SavedImage] = []
        for set in sets {
            let destination = configuration.destination(for: ShootPosition(set: set, frame: 1))
            files += try await camera.filesLeftBehind(in: destination, known: known)
        }
        for image in files where !progress.queue.isEmpty {
            var settled = progress.queue.arrived(image)
            guard case .frame(let position)? = settled.verdict else { continue }
            let folder = configuration.destination(for: position).directory
            if folder.standardizedFileURL.path != (image.path as NSString).deletingLastPathComponent {
                let moved = try await camera.move(image, toFolder: folder, name: image.fileName)
                progress.queue.replaceLastFile(of: position, with: moved)
            }
            emit(
                .cameraNote(
                    "\(image.fileName) was written before hdrshoot stopped but not recorded; its EXIF says it is "
                        + "\(position)'s, so it was kept for that frame"))
            settled.verdict = nil
            try await settle(settled)
        }
    }

    /// Saves the frames a download completed and puts back those that never got an image.
    private func settle(_ settled: DownloadQueue.Settled) async throws {
        for frame in settled.complete {
            progress.refusedWhileHolding[frame.position] = nil
            if !frame.confirmed {
                let when =
                    progress.lostReleases[frame.position]?.dropped ?? 0 > 0
                    ? "taken before the connection dropped" : "taken before hdrshoot stopped"
                emit(.cameraNote("the image of \(frame.expected.label) \(when) was recovered; it was not shot again"))
            }
            let saved = CapturedFrame(
                images: frame.images, actualSpeed: actualSpeed(of: frame),
                unmatchedImages: progress.unmatchedByFrame.removeValue(forKey: frame.position) ?? [])
            try await save(frame.position, setting: frame.setting, frame: saved)
        }
        let known = progress.learnedBufferCapacity
        for frame in settled.missing {
            try shootAgain(frame)
        }
        // Learned now: the next shoot of this body starts from it instead of finding out again.
        if let learned = progress.learnedBufferCapacity, learned != known {
            await camera.rememberBufferCapacity(learned)
        }
    }

    /// Learns that the body holds no more than `held` captures, and says so.
    func learnBuffer(holding held: Int) {
        progress.learnedBufferCapacity = min(held, progress.learnedBufferCapacity ?? held)
        emit(.learned(.bufferCapacity(captures: held, remembered: false)))
    }

    /// A frame with no image: fired again later in this run, unless its releases keep vanishing.
    private func shootAgain(_ frame: DownloadQueue.Fired) throws {
        if let held = progress.refusedWhileHolding.removeValue(forKey: frame.position) {
            // It fired nothing with `held` captures waiting: the body holds that many.
            learnBuffer(holding: held)
        }
        var lost = progress.lostReleases[frame.position, default: LostReleases()]
        if frame.confirmed {
            lost.vanished += 1
            emit(
                .cameraNote(
                    "no image of \(frame.position) (\(frame.expected.label)) arrived from the camera; it is shot again")
            )
        }
        progress.lostReleases[frame.position] = lost
        if !progress.toShoot.contains(frame.position) {
            progress.toShoot.append(frame.position)
            progress.toShoot.sort()
        }
        if lost.vanished > Self.maxVanishedReleases {
            throw ShootingError.imageNeverArrived(position: frame.position, attempts: lost.vanished)
        }
        if lost.dropped >= Self.maxDroppedReleases {
            throw ShootingError.releaseKeepsDropping(position: frame.position, releases: lost.dropped)
        }
    }

    /// How long to wait for `frame`'s image when the buffer reads empty: a Long Exposure NR dark frame as long as
    /// the exposure (bodies take one from 1 s), then the processing margin.
    private func waitForImage(of frame: DownloadQueue.Fired) -> Duration {
        guard frame.images.isEmpty else { return .zero }
        let exposure: Duration =
            switch frame.expected {
            case .timed(let speed): Duration.seconds(speed.numerator) / speed.denominator
            case .bulb(let held): held
            }
        return (exposure >= .seconds(1) ? exposure : .zero) + configuration.idleMargin
    }

    /// Moves a file no waiting frame claims into `unmatched/` beside the folder it came into, named with the
    /// exposure it records (`DSC00012-15s.JPG`), and says so once.
    private func setApart(
        _ image: SavedImage, in destination: CaptureDestination, because reason: String
    ) async throws
        -> SavedImage
    {
        let folder = destination.directory.appendingPathComponent("unmatched", isDirectory: true)
        let name = (image.fileName as NSString).deletingPathExtension
        let ext = (image.fileName as NSString).pathExtension
        let tag = image.exposure.map { "-" + $0.fileTag } ?? ""
        var moved = try await camera.move(image, toFolder: folder, name: name + tag + (ext.isEmpty ? "" : "." + ext))
        moved.problem = [image.problem, "not a frame's: \(reason)"].compactMap { $0 }.joined(separator: "; ")
        emit(.cameraNote("\(image.fileName) is kept as unmatched/\(moved.fileName): \(reason)"))
        return moved
    }

    /// The speed a frame was shot at: what its images record (EXIF), else its setting.
    private func actualSpeed(of frame: DownloadQueue.Fired) -> CameraShutterSpeed {
        if let exposure = frame.images.lazy.compactMap(\.exposure).first { return .timed(exposure) }
        return frame.setting
    }

    /// The last position of the plan (where late images with no frame are fetched into).
    private var lastPosition: ShootPosition { plan.positions.last ?? .start }
}

extension ShutterSpeed {
    /// The exposure for a file name: `15s`, `2.5s`, `1-250s`.
    package var fileTag: String {
        if seconds >= 0.3 {
            let tenths = (seconds * 10).rounded()
            return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))s" : "\(tenths / 10)s"
        }
        return "1-\(Int((1 / seconds).rounded()))s"
    }
}
