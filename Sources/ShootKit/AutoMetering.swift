import Exposure
import Foundation
import ImageLuminance
import Posix
import Shooting

/// `--auto` metering on a connected camera: the body's meter as a start, then probe frames searched by
/// `AutoMeter`, each saved in a `probes/` folder (they are real exposures on the card too). The layer reaches the
/// camera (`measure(with:reach:...)`, AutoMetering+Target.swift); the front end gives its `CameraReach` and words
/// the outcome (the CLI's `Outcome.line`).
package enum AutoMetering {
    /// What the metering found.
    package struct Outcome: Sendable {
        /// The speed the body's meter called correct (0xD1B5 against the set speed), nil when it reports none.
        package var metered: ShutterSpeed?
        /// The search: readings and probes.
        package var result: AutoMeter.Result
        /// The probe files, in the order shot (absolute paths).
        package var files: [String]
        /// Whether the probes were small JPEGs (0xD268).
        package var smallJPEG: Bool

        /// The probes as the manifest and the JSON output list them (files relative to `root` when inside it).
        package func records(relativeTo root: String) -> [ProbeRecord] {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            return result.probes.enumerated().map { index, probe in
                let file = index < files.count ? files[index] : ""
                return ProbeRecord(
                    speed: probe.speed.label,
                    file: file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file,
                    holdsHighlights: probe.holdsHighlights, opensShadows: probe.opensShadows)
            }
        }

        /// The readings to plan from: the found ones, or for a flat scene (every speed from the shadow reading to
        /// the highlight reading holds both ends) one speed in the middle of that span, for both.
        package var readings: (highlight: ShutterSpeed, shadow: ShutterSpeed) {
            let (highlight, shadow) = (result.highlight, result.shadow)
            guard highlight > shadow else { return (highlight, shadow) }
            let seconds = (highlight.seconds * shadow.seconds).squareRoot()
            let middle = ShutterScale.third.allSpeeds.min {
                abs(log2($0.seconds / seconds)) < abs(log2($1.seconds / seconds))
            }!
            return (middle, middle)
        }
    }

    /// Meters with probes saved into `probes` (created when missing); the camera is connected and was checked.
    /// The small-JPEG transfer (0xD268, p. 491) is on for the probes where the body has it, and put back after.
    package static func measure(
        _ camera: any CommandCamera, check: CameraCheck, probes: URL, say: @Sendable (String) -> Void
    ) async throws -> Outcome {
        guard check.capabilities.metering else {
            throw ShootPreparationError.blocked([.meteringUnavailable])
        }
        guard check.blockers.isEmpty else { throw ShootPreparationError.blocked(check.blockers) }
        var metered: ShutterSpeed?
        let meter = AutoMeter(speeds: check.offered)
        var start = check.offered[check.offered.count / 2]
        if case .timed(let current) = try await camera.currentShutterSpeed() {
            start = current
            if let level = await camera.meteredManualLevel() {
                // The meter says how much brighter than correct the set speed is (EV × 1000, p. 398).
                let seconds = current.seconds / pow(2, Double(level) / 1000)
                metered = check.offered.min { abs(log2($0.seconds / seconds)) < abs(log2($1.seconds / seconds)) }
                start = metered ?? current
            }
        }
        let small = try await camera.setSmallJPEGTransfer(true)
        var files: [String] = []
        let destination = CaptureDestination(directory: probes)
        let result: AutoMeter.Result
        do {
            result = try await meter.search(from: start) { speed in
                guard let setting = CameraShutterSpeed.resolve(speed, in: check.settings) else {
                    throw ShootPreparationError.blocked([.speedNotOffered(speed: speed.label, position: nil)])
                }
                try await camera.setShutterSpeed(setting)
                _ = try await camera.release(exposure: speed) {}
                // The release's files: a file left over from an earlier probe (an ARW arriving after its JPEG) is
                // passed over by its EXIF exposure; the first readable file of this exposure is read.
                var saved: [SavedImage] = []
                var mine: [SavedImage] = []
                while mine.isEmpty, saved.count < 4,
                    let image = try await camera.nextImage(
                        to: destination, waitingAtMost: .seconds(30) + .seconds(speed.seconds * 2))
                {
                    saved.append(image)
                    if image.exposure.map({ $0 == speed }) ?? true { mine.append(image) }
                }
                // Files that came with it (the ARW of a RAW+JPEG body without small JPEGs) are saved too.
                while saved.count < 4, let image = try await camera.nextImage(to: destination, waitingAtMost: .zero) {
                    saved.append(image)
                    if image.exposure.map({ $0 == speed }) ?? true { mine.append(image) }
                }
                guard let first = mine.first else {
                    throw ShootPreparationError.blocked([
                        .camera("the probe at \(speed.label) sent no image of its exposure")
                    ])
                }
                files.append(first.path)
                say("probe \(files.count): \(speed.label) \(first.fileName)")
                for image in mine {
                    if let bytes = try? FileSystem.readAll(image.path), let luma = try? LumaReader.read(bytes) {
                        return luma
                    }
                }
                throw ShootPreparationError.blocked([
                    .camera("the probe at \(speed.label) is no JPEG or ARW with a preview")
                ])
            }
        } catch {
            if small { _ = try? await camera.setSmallJPEGTransfer(false) }
            throw error
        }
        if small { _ = try await camera.setSmallJPEGTransfer(false) }
        return Outcome(metered: metered, result: result, files: files, smallJPEG: small)
    }
}
