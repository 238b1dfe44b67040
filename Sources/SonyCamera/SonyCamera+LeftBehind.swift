import Exposure
import Foundation
import ImageMetadata
import Posix
import Shooting

extension SonyCamera {
    /// The images a process that ended abruptly (a kill, a power cut) left in `destination`'s folder with no
    /// record naming them (`known`: the paths the journal names), for `resume` to adopt.
    ///
    /// Every file is read back, never trusted by its name: a whole image (a JPEG from its SOI to its EOI marker)
    /// is made durable again (file, then folder) and returned with the exposure its own EXIF records, oldest
    /// camera name first; the runner files it under the frame that EXIF says it is, exactly as a download
    /// would. A partial one (a `-partial` file of a transfer that broke off, a JPEG cut short) is deleted: it
    /// is not an image, and the camera keeps an image until its last byte was sent. A file whose completeness
    /// cannot be read from its bytes (a RAW) is left where it is and not adopted.
    package func filesLeftBehind(in destination: CaptureDestination, known: Set<String>) async throws -> [SavedImage] {
        let folder = destination.directory.path
        let found = try await runBlocking { () throws -> [LeftBehindFile] in
            guard FileSystem.exists(folder) else { return [] }
            let names: [String]
            do throws(Errno) {
                names = try FileSystem.contentsOfDirectory(folder)
            } catch {
                throw SonyCameraError.fileWriteFailed(path: folder, reason: error.description)
            }
            var found: [LeftBehindFile] = []
            var deleted = false
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                guard !known.contains(path), let status = try? FileSystem.fileStatus(path), status.isRegular else {
                    continue
                }
                guard let bytes = try? FileSystem.readAll(path) else { continue }
                switch LeftBehindFile.Verdict(name: name, bytes: bytes) {
                case .whole:
                    do throws(NewFileError) {
                        // Whatever the dead process had made durable or not, it is durable before it is adopted.
                        let descriptor: FileDescriptor
                        do throws(Errno) {
                            descriptor = try FileDescriptor.open(path, .readOnly)
                        } catch {
                            throw NewFileError(path: path, reason: error.description)
                        }
                        try NewFile.syncAndClose(descriptor, path: path)
                    } catch {
                        throw SonyCameraError.fileWriteFailed(path: error.path, reason: error.reason)
                    }
                    found.append(LeftBehindFile(name: name, path: path, bytes: bytes))
                case .partial:
                    try? FileSystem.unlink(path)
                    deleted = true
                case .unknown:
                    continue
                }
            }
            if deleted { try? FileSystem.syncDirectory(folder) }
            return found
        }
        return found.map { file in
            var image = SavedImage(fileName: file.name, path: file.path, byteCount: file.bytes.count)
            let fields = try? ExifReader.read(file.bytes)
            image.exposure = fields?.exposureTime.flatMap { ShutterSpeed(exif: $0) }
            image.dateTimeOriginal = fields?.dateTimeOriginal
            return image
        }
    }
}

/// A file found in a set folder that no record names, read whole.
struct LeftBehindFile: Sendable {
    /// What its bytes prove.
    enum Verdict: Equatable {
        /// A whole image: adopt it.
        case whole
        /// A transfer that did not finish: not an image.
        case partial
        /// Its bytes cannot tell (a RAW, an unknown format): leave it.
        case unknown

        /// The verdict on a file named `name` holding `bytes`: a `-partial` name (the downloader's own mark of a
        /// transfer that broke off), a file too short to be any image, or a JPEG without its EOI marker is
        /// partial; a JPEG ending in EOI is whole.
        init(name: String, bytes: [UInt8]) {
            // Shorter than any format's signature: created, and killed before its bytes came.
            if NewFile.split(name).stem.hasSuffix("-partial") || bytes.count < ImageFormat.detectionLength {
                self = .partial
                return
            }
            switch ImageFormat(detecting: bytes) {
            case .jpeg: self = bytes.suffix(2) == [0xFF, 0xD9] ? .whole : .partial
            default: self = .unknown
            }
        }
    }

    let name: String
    let path: String
    let bytes: [UInt8]
}
