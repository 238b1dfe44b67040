import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import TestSupport
import Testing

/// One frame as the runner shoots it with a `SonyCamera`: `release`, then `nextImage` until the buffer reads
/// empty (capture first, download behind; the production path, and the only one).
struct ShotFrame: Sendable {
    /// How the body showed the release.
    let release: Release
    /// The files fetched after it, oldest first.
    let images: [SavedImage]

    /// The speed the images record (EXIF), as the runner reads it.
    var actualSpeed: CameraShutterSpeed? { images.lazy.compactMap(\.exposure).first.map { .timed($0) } }
}

extension SonyCamera {
    /// Releases once and fetches every image the buffer then holds; waits for the first at most what the runner
    /// waits (`waitForFirstImage`).
    func shoot(
        exposure: ShutterSpeed, to destination: CaptureDestination,
        beforeRelease: @Sendable () async throws -> Void = {}
    ) async throws -> ShotFrame {
        let release = try await release(exposure: exposure, beforeRelease: beforeRelease)
        let images = try await fetchAll(to: destination, waitingAtMost: Self.waitForFirstImage(exposure))
        return ShotFrame(release: release, images: images)
    }

    /// Like `shoot`, but fetches only once `simulator` has the image ready, so the operations a real-time test
    /// counts do not depend on how fast the body processes: release (4 presses), one read of 0xD215,
    /// GetObjectInfo, GetObject, and the read that finds the buffer empty.
    func shootOnceTheImageIsReady(
        exposure: ShutterSpeed, to destination: CaptureDestination, on simulator: CameraSimulator
    ) async throws -> ShotFrame {
        let release = try await release(exposure: exposure, beforeRelease: {})
        let ready = try await eventually { await simulator.filesWaiting > 0 }
        try #require(ready, "the body never finished the image")
        let images = try await fetchAll(to: destination, waitingAtMost: .zero)
        return ShotFrame(release: release, images: images)
    }

    /// Fetches every image waiting, oldest first; waits at most `waitingAtMost` for each of the first `expecting`
    /// images to arrive (as the runner waits for each fired frame's image), not at all after them.
    func fetchAll(
        to destination: CaptureDestination, waitingAtMost: Duration, expecting: Int = 1
    ) async throws -> [SavedImage] {
        var images: [SavedImage] = []
        while let image = try await nextImage(
            to: destination, waitingAtMost: images.count < expecting ? waitingAtMost : .zero)
        {
            images.append(image)
        }
        return images
    }

    /// What the runner waits for a fired frame's image when the buffer reads empty: a dark frame as long as an
    /// exposure of 1 s or more, then its 10 s idle margin (`BracketRunner.Configuration.defaultIdleMargin`).
    static func waitForFirstImage(_ exposure: ShutterSpeed) -> Duration {
        let time = Duration.seconds(exposure.numerator) / exposure.denominator
        return (time >= .seconds(1) ? time : .zero) + BracketRunner.Configuration.defaultIdleMargin
    }
}
