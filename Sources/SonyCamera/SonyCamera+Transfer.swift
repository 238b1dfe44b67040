import Exposure
import Foundation
import ImageMetadata
import PTPIP
import PTPIPCodec
import Posix
import Shooting
import SonyProtocol
import Synchronization

extension SonyCamera {
    /// GetObjectInfo of the waiting still; nil when the body sends an empty or unreadable one (the image is
    /// then fetched anyway and named from its content).
    func objectInfo() async throws -> ObjectInfo? {
        let result = try await run(.getObjectInfo, [SonyObjectHandle.stillImage], during: "GetObjectInfo")
        guard let info = try? ObjectInfo(decoding: result.data), !info.filename.isEmpty else {
            note(
                "the camera described an image with \(result.data.isEmpty ? "no" : "unreadable") information; "
                    + "it was fetched anyway and named from its content")
            return nil
        }
        return info
    }

    /// Streams the waiting still to a new file and makes it durable (file, then folder, fsynced) before
    /// returning: GetObject in one transaction when the body supports it, else GetPartialObject in chunks.
    ///
    /// Nothing the camera sent is ever thrown away: a data phase longer or shorter than GetObjectInfo
    /// announced is kept as it came and marked (`SavedImage.problem`); a transfer that breaks off keeps the
    /// bytes that arrived in a `-partial` file (the image itself usually stays in the camera and is fetched
    /// again after a reconnect, and the `-partial` file is deleted once it, or a newer image, arrives whole). An image without a usable name is named from its content (JPEG, ARW, ...).
    /// The image's own exposure time is read from its EXIF.
    func download(_ info: ObjectInfo?, to destination: CaptureDestination) async throws -> SavedImage {
        session.downloads += 1
        let cameraName = info.map(\.filename)
        let name = destination.fileNamePrefix + NewFile.sanitize(cameraName ?? "unnamed-\(session.downloads)")
        let announced: Int? = info.flatMap {
            $0.objectCompressedSize == UInt32.max ? nil : Int($0.objectCompressedSize)
        }
        // A body lets an image go once its last byte was sent: one the disk cannot hold is not fetched, so it stays
        // in the camera for `resume` (issue 37's full local disk).
        let folder = destination.directory.path
        if let announced, let free = try await runBlocking({ FileSpace.available(near: folder) }), free < announced {
            throw SonyCameraError.diskFull(folder: folder, available: free, needed: announced)
        }
        let file = try await ImageFile.create(in: destination.directory, name: name)
        if let announced {
            // The room itself, taken before GetObject: other files written beside it (the manifest, the journal)
            // cannot take it from under the transfer.
            do {
                try await file.reserve(announced)
            } catch {
                await file.discard()
                throw error
            }
        }
        let written = ByteCounter()
        let head = ImageHead()
        let sink: DataSink = { chunk, _ in
            head.keep(chunk)
            try await file.write(chunk)
            written.add(chunk.count)
        }
        do {
            if info == nil || announced != nil, deviceInfo?.supports(.getObject) ?? true {
                try await run(
                    .getObject, [SonyObjectHandle.stillImage], receivingDataWith: sink, during: "GetObject \(name)")
            } else {
                try await downloadInChunks(announced: announced, name: name, sink: sink, written: written)
            }
        } catch {
            if written.value == 0 || error.isLocalWriteFailure {
                // A disk that refused the bytes (full, failing) keeps no part of them: nothing is left among the
                // images, and what the camera still holds is fetched again once there is room.
                await file.discard()
            } else if (try? await file.finish()) != nil {
                let (stem, ext) = NewFile.split(file.fileName)
                let kept = try? await ImageFile.rename(path: file.path, to: stem + "-partial" + ext)
                if let cameraName, let kept { partialFiles[cameraName, default: []].append(kept.path) }
                note(
                    "the transfer of \(name) broke off after \(written.value) bytes; they are kept in \(kept?.fileName ?? file.fileName)"
                )
            }
            throw error
        }
        // Durable before anyone records it saved (`makeDurable`), but not on this frame's critical path.
        let ticket = file.finishInBackground()
        pendingSyncs[file.path] = ticket
        if !partialFiles.isEmpty {
            // An image arrived whole. The body hands out its oldest file first (0xFFFFC001, reference p. 47), so
            // the bytes kept from broken transfers, of this file or of an older one, are of images that will never
            // arrive again (this one is here; an older one was lost by the body, issue 37 seed 328): not images.
            let partials = partialFiles.keys.sorted().flatMap { partialFiles[$0]! }
            partialFiles = [:]
            for partial in partials { await ImageFile.remove(path: partial) }
        }
        var saved = SavedImage(fileName: file.fileName, path: file.path, byteCount: written.value)
        if let announced, written.value != announced {
            saved.problem = "\(written.value) bytes arrived where the camera announced \(announced); kept as they came"
            note("\(saved.fileName): \(saved.problem!)")
        }
        // The EXIF of a JPEG is in its first bytes, kept in memory as they passed; an ARW whose directories lie
        // further in is read from the file.
        let bytes = head.bytes
        var fields = try? ExifReader.read(bytes)
        if fields == nil, written.value > bytes.count, case .tiff = ImageFormat(detecting: bytes) {
            fields = try? await ImageFile.readExif(path: saved.path)
        }
        saved.exposure = fields?.exposureTime.flatMap { ShutterSpeed(exif: $0) }
        saved.dateTimeOriginal = fields?.dateTimeOriginal
        if cameraName == nil {
            try await awaitSync(of: saved.path)
            let format: ImageFormat? = ImageFormat(detecting: bytes)
            let renamed = try await ImageFile.rename(
                path: saved.path, to: "\(NewFile.split(saved.fileName).stem).\((format ?? .unknown).fileExtension)")
            saved.fileName = renamed.fileName
            saved.path = renamed.path
            saved.problem = [saved.problem, "the camera gave no name for it; named from its content"]
                .compactMap { $0 }.joined(separator: "; ")
        }
        return saved
    }

    /// Returns once every file of `frame` is durable (fsynced with its folder); throws when one could not be
    /// made so. The runner calls it before it records the frame saved.
    package func makeDurable(_ frame: CapturedFrame) async throws {
        for image in frame.images + frame.recoveredImages + frame.unmatchedImages {
            try await awaitSync(of: image.path)
        }
    }

    /// Awaits the background fsyncs of the file at `path`, if any are pending.
    func awaitSync(of path: String) async throws {
        guard let ticket = pendingSyncs.removeValue(forKey: path) else { return }
        try await ticket.wait()
    }

    /// GetPartialObject (offset, length) until the announced size, or a short chunk when the size is unknown.
    private func downloadInChunks(
        announced total: Int?, name: String, sink: @escaping DataSink, written: ByteCounter
    ) async throws {
        let chunk = UInt32(clamping: configuration.partialObjectChunk)
        while total.map({ written.value < $0 }) ?? true {
            let offset = UInt32(clamping: written.value)
            let before = written.value
            try await run(
                .getPartialObject, [SonyObjectHandle.stillImage, offset, chunk], receivingDataWith: sink,
                during: "GetPartialObject \(name) at \(offset)")
            let got = written.value - before
            if got == 0 || (total == nil && got < Int(chunk)) { return }
        }
    }
}

extension Error {
    /// Whether this is the disk refusing an image's bytes (`SonyCameraError.fileWriteFailed`, a full disk), not the
    /// transfer breaking off.
    var isLocalWriteFailure: Bool {
        switch self as? SonyCameraError {
        case .fileWriteFailed?, .diskFull?: true
        default: false
        }
    }
}

extension ShutterSpeed {
    /// The speed an EXIF ExposureTime records; nil for a zero term.
    init?(exif: ExifRational) {
        guard exif.numerator > 0, exif.denominator > 0 else { return nil }
        self.init(numerator: Int(exif.numerator), denominator: Int(exif.denominator))
    }

}

/// The first bytes of an image as they pass through a transfer (enough for a JPEG's EXIF), kept off the actor.
final class ImageHead: Sendable {
    private let kept = Mutex<[UInt8]>([])

    /// How many leading bytes are kept.
    static let length = ExifReader.suggestedPrefixLength

    /// Keeps the part of `chunk` that falls within the first `length` bytes.
    func keep(_ chunk: ArraySlice<UInt8>) {
        kept.withLock { bytes in
            let room = Self.length - bytes.count
            if room > 0 { bytes += chunk.prefix(room) }
        }
    }

    /// The bytes kept.
    var bytes: [UInt8] { kept.withLock { $0 } }
}
