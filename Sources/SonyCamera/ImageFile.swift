import Dispatch
import Foundation
import ImageMetadata
import Posix
import Synchronization

/// An image file being written as its bytes arrive from the camera.
///
/// File system calls block, so they run on a private serial queue, never on the cooperative pool; each
/// write is awaited, which keeps chunks in order and slows the camera down (TCP flow control) when the
/// disk is slower than the link. The file is created with `O_EXCL`: an existing file is never
/// overwritten; the name gets a `-1`, `-2`, ... suffix instead.
final class ImageFile: Sendable {
    /// The name as written (prefix, camera name, maybe a suffix).
    let fileName: String
    /// The full path.
    let path: String
    private let descriptor: FileDescriptor
    private let queue: DispatchQueue

    private init(fileName: String, path: String, descriptor: FileDescriptor, queue: DispatchQueue) {
        self.fileName = fileName
        self.path = path
        self.descriptor = descriptor
        self.queue = queue
    }

    /// Creates `directory` when missing and a new file named `name` in it (suffixed when taken).
    static func create(in directory: URL, name: String) async throws -> ImageFile {
        let queue = DispatchQueue(label: "hdrshoot.image-file")
        return try await run(on: queue) {
            try Self.makeDirectory(directory.path)
            let (stem, ext) = split(name)
            for attempt in 0..<1000 {
                let candidate = attempt == 0 ? name : "\(stem)-\(attempt)\(ext)"
                let path = directory.appendingPathComponent(candidate).path
                do throws(Errno) {
                    let fd = try FileDescriptor.open(path, .writeOnly, [.create, .exclusive], permissions: 0o644)
                    return ImageFile(fileName: candidate, path: path, descriptor: fd, queue: queue)
                } catch .fileExists {
                    continue
                } catch {
                    throw SonyCameraError.fileWriteFailed(path: path, reason: error.description)
                }
            }
            throw SonyCameraError.fileWriteFailed(
                path: directory.appendingPathComponent(name).path, reason: "1000 files of that name exist")
        }
    }

    /// Appends `bytes` (a slice of the PTP/IP client's receive buffer: no copy is made).
    ///
    /// The slice shares the client's buffer, whose next read must not find it still referenced (that would
    /// copy the whole buffer): the queue takes it out of `handoff` and drops it before resuming the caller.
    func write(_ bytes: ArraySlice<UInt8>) async throws {
        let (fd, path) = (descriptor, self.path)
        let handoff = SliceHandoff(bytes)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                let result = Result { try Self.writeAll(handoff.take(), to: fd, path: path) }
                continuation.resume(with: result)
            }
        }
    }

    /// Writes every byte of `bytes` to `fd` (Posix retries EINTR and short writes).
    private static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: FileDescriptor, path: String) throws {
        do throws(Errno) {
            try fd.writeAll(bytes)
        } catch {
            throw SonyCameraError.fileWriteFailed(path: path, reason: error.description)
        }
    }

    /// Makes the finished file durable and closes it: fsync of the file, then of its folder (so the new
    /// name survives a power cut too), before anyone records the image as saved.
    func finish() async throws {
        let (fd, path) = (descriptor, self.path)
        try await Self.run(on: queue) {
            try Self.syncAndClose(fd, path: path)
        }
    }

    /// Like `finish()`, but returns at once: the fsyncs and the close run on the file's queue in the background,
    /// and the returned ticket says when they are done (so the slow part of saving an image overlaps the next
    /// camera operation; the caller awaits the ticket before anyone records the image as saved).
    func finishInBackground() -> SyncTicket {
        let ticket = SyncTicket()
        let (fd, path) = (descriptor, self.path)
        queue.async {
            ticket.complete(Result { try Self.syncAndClose(fd, path: path) })
        }
        return ticket
    }

    /// fsync of the file, close, then fsync of its folder; on the file's queue.
    private static func syncAndClose(_ fd: FileDescriptor, path: String) throws {
        do throws(Errno) {
            try fd.sync()
        } catch {
            fd.closeIgnoringErrors()
            throw SonyCameraError.fileWriteFailed(path: path, reason: error.description)
        }
        do throws(Errno) {
            try fd.close()
        } catch {
            throw SonyCameraError.fileWriteFailed(path: path, reason: error.description)
        }
        try syncFolder(of: path)
    }

    /// Renames the finished file to `name` in the same folder (suffixed when taken; never overwriting), and
    /// makes the rename durable. Returns the new name and path.
    static func rename(path: String, to name: String) async throws -> (fileName: String, path: String) {
        try await move(path: path, toFolder: (path as NSString).deletingLastPathComponent, name: name)
    }

    /// Moves the finished file to `folder` (created when missing) as `name` (suffixed when taken; never
    /// overwriting) and makes the move durable (both folders fsynced). Returns the new name and path.
    static func move(
        path: String, toFolder folder: String, name: String
    ) async throws -> (fileName: String, path: String) {
        let queue = DispatchQueue(label: "hdrshoot.image-file.move")
        return try await run(on: queue) {
            try makeDirectory(folder)
            let (stem, ext) = split(name)
            for attempt in 0..<1000 {
                let candidate = attempt == 0 ? name : "\(stem)-\(attempt)\(ext)"
                let target = (folder as NSString).appendingPathComponent(candidate)
                // link + unlink: unlike rename(2), link(2) never replaces an existing file.
                do throws(Errno) {
                    try FileSystem.link(path, to: target)
                } catch .fileExists {
                    continue
                } catch {
                    throw SonyCameraError.fileWriteFailed(path: target, reason: error.description)
                }
                try? FileSystem.unlink(path)
                try syncFolder(of: target)
                try syncFolder(of: path)
                return (candidate, target)
            }
            throw SonyCameraError.fileWriteFailed(path: path, reason: "1000 files of that name exist")
        }
    }

    /// The EXIF fields of the finished file at `path` (read off the file queue, a prefix at a time).
    static func readExif(path: String) async throws -> ExifFields {
        try await run(on: DispatchQueue(label: "hdrshoot.image-file.exif")) {
            try ExifReader.read { length in try readPrefix(of: path, length: length) }
        }
    }

    /// Up to `length` leading bytes of the file at `path` (fewer at its end).
    private static func readPrefix(of path: String, length: Int) throws -> [UInt8] {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw SonyCameraError.fileWriteFailed(path: path, reason: error.description)
        }
        defer { fd.closeIgnoringErrors() }
        var bytes = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            // A read error ends the prefix where it is, like the end of the file.
            let got = bytes.withUnsafeMutableBytes {
                (try? fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]), atOffset: filled)) ?? 0
            }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }

    /// fsync of the folder holding `path`.
    private static func syncFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do throws(Errno) {
            try FileSystem.syncDirectory(folder.isEmpty ? "." : folder)
        } catch {
            throw SonyCameraError.fileWriteFailed(path: folder, reason: error.description)
        }
    }

    /// Closes and deletes an unfinished file, so no truncated image is left behind.
    func discard() async {
        let (fd, path) = (descriptor, self.path)
        try? await Self.run(on: queue) {
            fd.closeIgnoringErrors()
            try? FileSystem.unlink(path)
        }
    }

    // MARK: - Helpers

    private static func run<T: Sendable>(
        on queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    private static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw SonyCameraError.fileWriteFailed(
                path: path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
    }

    /// `DSC01234.JPG` → (`DSC01234`, `.JPG`); a name without a dot has no extension.
    static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// A camera file name made safe for a local path: no directories, no NUL, never empty.
    static func sanitize(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\u{7F}" })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "image" : cleaned
    }
}

/// Hands one slice to the file queue and lets it drop the reference before the writer resumes.
private final class SliceHandoff: Sendable {
    private let slot: Mutex<ArraySlice<UInt8>>

    init(_ bytes: ArraySlice<UInt8>) {
        slot = Mutex(bytes)
    }

    /// The slice; the handoff keeps nothing.
    func take() -> ArraySlice<UInt8> {
        slot.withLock { slot in
            let bytes = slot
            slot = []
            return bytes
        }
    }
}

/// When a file's background fsyncs are done, and how they went; awaited any number of times.
final class SyncTicket: Sendable {
    private struct State {
        var result: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Void, any Error>] = []
    }

    private let state = Mutex(State())

    /// Records the outcome and wakes every waiter.
    func complete(_ result: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.result = result
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// Returns once the fsyncs are done; throws their error.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let done = state.withLock { state -> Result<Void, any Error>? in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(with: done) }
        }
    }
}
