import Dispatch
import Foundation
import ImageMetadata
import Posix
import Synchronization

/// An image file being written as its bytes arrive from the camera: the asynchronous face of Posix's
/// `NewFile`, which does the creating (`O_EXCL`, never over an existing file: a `-1`, `-2`, ... suffix
/// instead), the moving and the fsyncs.
///
/// The writes run on the file's own serial queue (`runBlocking(on:)`, counted as blocking work in flight, so a
/// lockstep test never takes a write for a parked camera), never on the cooperative pool: each is awaited, which keeps
/// chunks in order and slows the camera down (TCP flow control) when the disk is slower than the link, and the
/// fsyncs can follow the last write in the background (`finishInBackground`). One-off calls (create, move,
/// read the EXIF) go through `runBlocking`. Inside a deterministic world (`TaskPlacement.runsInline`) every
/// call runs inline on the world's one thread, in call order, as the queue would keep it.
final class ImageFile: Sendable {
    /// The name as written (prefix, camera name, maybe a suffix).
    let fileName: String
    /// The full path.
    let path: String
    private let descriptor: FileDescriptor
    private let queue: DispatchQueue

    private init(fileName: String, path: String, descriptor: FileDescriptor) {
        self.fileName = fileName
        self.path = path
        self.descriptor = descriptor
        self.queue = DispatchQueue(label: "hdrshoot.image-file")
    }

    /// Creates `directory` when missing and a new file named `name` in it (suffixed when taken).
    static func create(in directory: URL, name: String) async throws -> ImageFile {
        let folder = directory.path
        let file = try await runBlocking { try newFile(in: folder, name: name) }
        return ImageFile(fileName: file.fileName, path: file.path, descriptor: file.descriptor)
    }

    /// Appends `bytes` (a slice of the PTP/IP client's receive buffer: no copy is made).
    ///
    /// The slice shares the client's buffer, whose next read must not find it still referenced (that would
    /// copy the whole buffer): the queue takes it out of `handoff` and drops it before resuming the caller.
    func write(_ bytes: ArraySlice<UInt8>) async throws {
        let (fd, path) = (descriptor, self.path)
        let handoff = SliceHandoff(bytes)
        try await runBlocking(on: queue) { () throws(any Error) in try Self.writeAll(handoff.take(), to: fd, path: path)
        }
    }

    /// Reserves room on the disk for the image's `count` bytes before any arrives (`FileDescriptor.reserve`): a disk
    /// that has not the room throws `SonyCameraError.diskFull` now, while the camera still holds the image.
    func reserve(_ count: Int) async throws {
        let (fd, path) = (descriptor, self.path)
        let reserve: @Sendable () throws -> Void = {
            do throws(Errno) {
                _ = try fd.reserve(count)
            } catch {
                let folder = (path as NSString).deletingLastPathComponent
                if error == .noSpace {
                    throw SonyCameraError.diskFull(
                        folder: folder, available: FileSpace.available(near: folder) ?? 0, needed: count)
                }
                throw SonyCameraError.fileWriteFailed(path: path, reason: error.description)
            }
        }
        try await runBlocking(on: queue) { () throws(any Error) in try reserve() }
    }

    /// Makes the finished file durable and closes it (`NewFile.syncAndClose`: the file, then its folder).
    func finish() async throws {
        try await finishInBackground().wait()
    }

    /// Like `finish()`, but returns at once: the fsyncs and the close run on the file's queue after the last
    /// write, and the returned ticket says when they are done (so the slow part of saving an image overlaps the
    /// next camera operation; the caller awaits the ticket before anyone records the image as saved).
    func finishInBackground() -> SyncTicket {
        let ticket = SyncTicket()
        let (fd, path) = (descriptor, self.path)
        // Inside a deterministic world the fsyncs run now, on its one thread (`TaskPlacement`).
        runInBackground(on: queue) {
            ticket.complete(Result { try Self.syncAndClose(fd, path: path) })
        }
        return ticket
    }

    /// Closes and deletes an unfinished file, so no truncated image is left behind.
    func discard() async {
        let (fd, path) = (descriptor, self.path)
        await runBlocking(on: queue) { () throws(Never) in
            fd.closeIgnoringErrors()
            try? FileSystem.unlink(path)
        }
    }

    /// Deletes the file at `path` durably (the name, then its folder); a file already gone is no error.
    static func remove(path: String) async {
        _ = try? await runBlocking {
            try? FileSystem.unlink(path)
            try? FileSystem.syncDirectory((path as NSString).deletingLastPathComponent)
        }
    }

    /// Renames the finished file to `name` in the same folder (suffixed when taken; never overwriting), and
    /// makes the rename durable. Returns the new name and path.
    static func rename(path: String, to name: String) async throws -> (fileName: String, path: String) {
        try await move(path: path, toFolder: (path as NSString).deletingLastPathComponent, name: name)
    }

    /// Moves the finished file to `folder` (created when missing) as `name` (suffixed when taken; never
    /// overwriting) and makes the move durable (`NewFile.move`). Returns the new name and path.
    ///
    /// Runs to the end even when the caller is cancelled: a move whose new path nobody learns would lose the
    /// image's record.
    static func move(
        path: String, toFolder folder: String, name: String
    ) async throws -> (fileName: String, path: String) {
        try await Task(executorPreference: TaskPlacement.preferred) {
            try await runBlocking { try moveFile(path, toFolder: folder, name: name) }
        }.value
    }

    /// The EXIF fields of the finished file at `path` (read a prefix at a time).
    static func readExif(path: String) async throws -> ExifFields {
        try await runBlocking {
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

    // MARK: - NewFile, its errors said the way this layer says a file error

    private static func newFile(
        in folder: String, name: String
    ) throws -> (descriptor: FileDescriptor, fileName: String, path: String) {
        do throws(NewFileError) {
            return try NewFile.create(in: folder, name: name)
        } catch {
            throw SonyCameraError.fileWriteFailed(path: error.path, reason: error.reason)
        }
    }

    private static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: FileDescriptor, path: String) throws {
        do throws(Errno) {
            try fd.writeAll(bytes)
        } catch {
            throw SonyCameraError.fileWriteFailed(path: path, reason: error.description)
        }
    }

    private static func syncAndClose(_ fd: FileDescriptor, path: String) throws {
        do throws(NewFileError) {
            try NewFile.syncAndClose(fd, path: path)
        } catch {
            throw SonyCameraError.fileWriteFailed(path: error.path, reason: error.reason)
        }
    }

    private static func moveFile(
        _ path: String, toFolder folder: String, name: String
    ) throws -> (
        fileName: String, path: String
    ) {
        do throws(NewFileError) {
            return try NewFile.move(path, toFolder: folder, name: name)
        } catch {
            throw SonyCameraError.fileWriteFailed(path: error.path, reason: error.reason)
        }
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
