import CameraRemoteAPI
import Exposure
import Foundation
import ImageMetadata
import Posix
import Shooting
import Timing

/// The pictures: postviews downloaded over HTTP into durable files, named after the body's URL, with the
/// exposure and capture time their own EXIF records.
extension LegacySonyCamera {
    /// Downloads the oldest picture the body reported (see `RemoteCamera.nextImage`); when none waits, reads
    /// getEvent for one for at most `waitingAtMost`. The file is written (never over an existing one) and made
    /// durable (file and folder fsynced) before it is returned. A picture the body no longer offers (404) is
    /// skipped with a note; a lost link leaves it pending for the next session.
    package func nextImage(to destination: CaptureDestination, waitingAtMost: Duration) async throws -> SavedImage? {
        guard case .ready = state else { throw try lostOrNotConnected() }
        if pictures.isEmpty, waitingAtMost > .zero {
            try await waitForPicture(timeout: waitingAtMost)
        }
        while let url = pictures.first {
            let bytes: [UInt8]
            do {
                let (limit, timeout) = (configuration.maximumImageBytes, configuration.downloadTimeout)
                bytes = try await perform("the download of \(url)") { client async throws(CameraRemoteAPIError) in
                    try await client.downloadPostview(url, maximumBytes: limit, timeout: timeout)
                }
            } catch let error as CameraRemoteAPIError {
                if case let .httpStatus(status, _, _) = error, status == 503 {
                    throw LegacySonyCameraError.busy(operation: "the download of \(url)", underlying: error)
                }
                // Gone (404), refused, or not usable: nothing more can come of this one.
                pictures.removeFirst()
                note("the picture at \(url) could not be downloaded (\(error)); it stays on the camera's card")
                continue
            }
            let image = try await save(bytes, from: url, to: destination)
            pictures.removeFirst()
            if pictures.isEmpty, case .ready = state { statusBroadcaster.publish(.idle) }
            return image
        }
        if case .ready = state { statusBroadcaster.publish(.idle) }
        return nil
    }

    /// Reads getEvent until a picture is reported or `timeout` passed.
    private func waitForPicture(timeout: Duration) async throws {
        let watch = Stopwatch(clock: clock)
        var pauses = PollPauses(configuration.pollIntervals + [.seconds(1)])
        while pictures.isEmpty {
            let left = watch.remaining(of: timeout)
            guard left > .zero else { return }
            try await clock.sleep(for: min(pauses.next(), left))
            if pictures.isEmpty { try await pollEvent() }
        }
    }

    /// Writes `bytes` as a new, durable file named after the URL's last path component (prefixed), and reads
    /// its EXIF.
    private func save(
        _ bytes: [UInt8], from url: String, to destination: CaptureDestination
    ) async throws
        -> SavedImage
    {
        var name = NewFile.sanitize(Self.fileName(of: url))
        if NewFile.split(name).ext.isEmpty {
            name += "." + ImageFormat(detecting: bytes).fileExtension
        }
        let fileName = destination.fileNamePrefix + name
        let directory = destination.directory.path
        let written = try await onFiles { () throws(NewFileError) -> (fileName: String, path: String) in
            let file = try NewFile.create(in: directory, name: fileName)
            do throws(Errno) {
                try file.descriptor.writeAll(bytes)
            } catch {
                file.descriptor.closeIgnoringErrors()
                try? FileSystem.unlink(file.path)
                throw NewFileError(path: file.path, reason: error.description)
            }
            try NewFile.syncAndClose(file.descriptor, path: file.path)
            return (file.fileName, file.path)
        }
        var image = SavedImage(fileName: written.fileName, path: written.path, byteCount: bytes.count)
        let fields = try? ExifReader.read(bytes.prefix(ExifReader.suggestedPrefixLength))
        image.exposure = fields?.exposureTime.flatMap(Self.speed(exif:))
        image.dateTimeOriginal = fields?.dateTimeOriginal
        if image.exposure == nil {
            note("\(image.fileName) records no exposure time; it is filed without checking which frame it is")
        }
        return image
    }

    /// `pict1.JPG` from `http://192.168.122.1:8080/postview/pict1.JPG?size=Original`.
    static func fileName(of url: String) -> String {
        let path = (try? RemoteURL(url))?.path ?? url
        let withoutQuery = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        return withoutQuery.split(separator: "/").last.map(String.init) ?? "image"
    }

    /// The speed an EXIF ExposureTime records; nil for a zero term.
    static func speed(exif: ExifRational) -> ShutterSpeed? {
        guard exif.numerator > 0, exif.denominator > 0 else { return nil }
        return ShutterSpeed(numerator: Int(exif.numerator), denominator: Int(exif.denominator))
    }

    /// Moves a downloaded file into `folder` as `name`, durably, never over a file.
    package func move(_ image: SavedImage, toFolder folder: URL, name: String) async throws -> SavedImage {
        let (path, target) = (image.path, folder.path)
        let moved = try await onFiles { () throws(NewFileError) in try NewFile.move(path, toFolder: target, name: name)
        }
        var record = image
        record.fileName = moved.fileName
        record.path = moved.path
        return record
    }

    /// Every file is durable when `nextImage` returns it, so there is nothing left to wait for.
    package func makeDurable(_ frame: CapturedFrame) async throws {}

    /// What crosses the link: the postview, a JPEG (the full-size one when the body took "Original"); RAW files
    /// stay on the card.
    package func transferSettings() -> TransferSettings {
        TransferSettings(
            destination: .hostAndCamera, smallJPEG: settings.postviewSize.map { $0 != "Original" },
            rawJPEGSent: "JPEG only")
    }

    /// The API reports neither battery nor shots left in the events read here: unknown.
    package func mediaStatus() -> MediaStatus { MediaStatus() }

    /// Runs blocking file work on the camera's file queue.
    private func onFiles<T: Sendable>(_ body: @escaping @Sendable () throws(NewFileError) -> T) async throws -> T {
        do throws(NewFileError) {
            return try await runBlocking(on: files, body)
        } catch {
            throw LegacySonyCameraError.fileWriteFailed(path: error.path, reason: error.reason)
        }
    }
}
