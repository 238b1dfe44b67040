import Foundation
import ImageMetadata
import PTPIPCodec
import SonyProtocol

extension SimulatedCamera {
    /// Highest file number on a Sony card (DSC09999); the next file is DSC00001 again, as a body starts a new folder.
    static let highestFileNumber = 9999

    /// The file of kind `kind` a capture leaves in the buffer: named by its file number, carrying the EXIF a
    /// body writes (the JPEG and the ARW of a RAW+JPEG capture share the number, the EXIF and the stem).
    ///
    /// The file number counts frames since the simulator started, so it carries on across sessions (a
    /// reconnect does not start again at DSC00001), like the numbering of a real card.
    func makeImage(_ capture: Capture, kind: FileKind) -> GeneratedImage {
        let value = SonyShutterValue(rawValue: capture.shutterValue)
        let clock = configuration.cameraClock ?? SimulatorConfiguration.defaultCameraClock
        let exif = ExifFields(
            exposureTime: Self.exposureTime(of: value, held: capture.exposure),
            dateTimeOriginal: clock.adding(seconds: Int(capture.started.components.seconds)).exifString,
            make: "SONY", model: datasets.modelName)
        let comment = "hdrshoot simulator frame \(capture.frame) shutter \(value.label)"
        // With --scene, the picture is the scene at the time EXIF states (the set speed; BULB: the time held).
        let picture = configuration.scene.map { scene in
            SceneImage.picture(
                of: scene,
                seconds: .init(
                    numerator: max(1, Int(exif.exposureTime?.numerator ?? 1)),
                    denominator: max(1, Int(exif.exposureTime?.denominator ?? 1))))
        }
        let smallSize = max(configuration.imageSize / 16, Self.smallJPEGMinimum)
        switch kind {
        case .jpeg, .smallJPEG:
            return GeneratedImage(
                size: kind == .jpeg ? configuration.imageSize : smallSize,
                fileName: Self.fileName(frame: capture.frame, label: value.label, format: .jpeg), comment: comment,
                exif: exif, picture: picture)
        case .raw:
            // The preview a body embeds is a small JPEG too; zeros for the sensor data fill up to the size.
            return GeneratedImage(
                rawSize: configuration.imageSize,
                fileName: Self.fileName(frame: capture.frame, label: value.label, format: .arw), exif: exif,
                previewSize: smallSize, comment: comment, picture: picture)
        }
    }

    /// `DSC00001_1-250s.JPG` (`.ARW` for a RAW): the card's file number (1...9999, then 1 again) and the speed,
    /// for people reading a folder.
    static func fileName(frame: Int, label: String, format: GeneratedImageFormat = .jpeg) -> String {
        let number = String((max(frame, 1) - 1) % highestFileNumber + 1)
        return "DSC" + String(repeating: "0", count: 5 - number.count) + number + "_" + CaptureRecord.fileLabel(label)
            + "." + format.fileExtension
    }

    /// EXIF ExposureTime of a frame: the set speed exactly as Sony encodes it (`1/250`, `25/10`), whatever
    /// `--exposure-cap` held; for BULB the time S2 was held, to 0.1 s (`40/1`, `35/10`; at least `1/10`).
    static func exposureTime(of value: SonyShutterValue, held: Duration) -> ExifRational {
        if !value.isBulb, value.denominator != 0 {
            return ExifRational(numerator: UInt32(value.numerator), denominator: UInt32(value.denominator))
        }
        let (seconds, attoseconds) = held.components
        let tenths = max(1, (seconds * 10 + (attoseconds + 50_000_000_000_000_000) / 100_000_000_000_000_000))
        let clamped = UInt32(clamping: tenths)
        return clamped % 10 == 0
            ? ExifRational(numerator: clamped / 10, denominator: 1) : ExifRational(numerator: clamped, denominator: 10)
    }
}

extension SimulatorDatasets {
    /// The model name in the DeviceInfo the body serves (a replayed body's own), for its images' EXIF.
    package var modelName: String {
        (try? DeviceInfo(decoding: deviceInfo))?.model ?? Self.modelName
    }
}

extension SimulatorConfiguration {
    /// The clock a body without `cameraClock` uses when no computer clock was read (the pure state machine in tests).
    static let defaultCameraClock = ExifDateTime(year: 2026, month: 1, day: 1)!

    /// This configuration with `cameraClock` set: unchanged when set, else this computer's local time now.
    func withCameraClockSet(now: Date = Date(), timeZone: TimeZone = .current) -> SimulatorConfiguration {
        guard cameraClock == nil else { return self }
        var configuration = self
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        configuration.cameraClock = ExifDateTime(
            year: parts.year ?? 2026, month: parts.month ?? 1, day: parts.day ?? 1,
            hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
        return configuration
    }
}
