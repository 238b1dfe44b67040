import Posix

/// An exclusive claim on one shoot's journal, held by the process that shoots it (`run` or `resume`).
///
/// It is an `flock(2)` on `<id>.lock` next to the journal: the kernel drops it when the descriptor closes,
/// so a process that dies (even by SIGKILL) never leaves a stale claim, and a second `hdrshoot resume`
/// while the first still shoots is refused instead of driving the same camera and rewriting the same
/// journal. The file holds the holder's process id, for the message. Releasing closes the descriptor;
/// so does deinit.
package final class JournalLock: Sendable {
    /// The lock file.
    package let path: String
    private let descriptor: FileDescriptor

    private init(path: String, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        descriptor.closeIgnoringErrors()
    }

    /// The lock file of the journal `id` in `directory`.
    static func path(ofJournal id: String, in directory: String) -> String {
        directory + "/" + id + ".lock"
    }

    /// Takes the claim on journal `id` without waiting; blocking file calls: run on the journal queue.
    static func acquire(id: String, in directory: String) throws(JournalError) -> JournalLock {
        let path = path(ofJournal: id, in: directory)
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readWrite, .create, permissions: 0o600)
        } catch {
            throw .writeFailed(path: path, errno: JournalStore.errno(of: error))
        }
        do {
            try descriptor.tryLock(exclusive: true)
        } catch {
            let code = JournalStore.errno(of: error)
            let holder = code == .wouldBlock ? holderProcessID(descriptor) : nil
            descriptor.closeIgnoringErrors()
            if code == .wouldBlock { throw .inUse(path: path, processID: holder) }
            throw .writeFailed(path: path, errno: code)
        }
        let lock = JournalLock(path: path, descriptor: descriptor)
        // The holder's pid, for a refused second process; a failure here only loses that detail.
        let text = Array("\(CurrentProcess.id)\n".utf8)
        if (try? descriptor.truncate(to: 0)) != nil {
            _ = try? descriptor.write(text, atOffset: 0)
        }
        return lock
    }

    /// Whether journal `id` is claimed right now, and by which process (nil inside: claimed, pid unknown);
    /// `nil` when nobody holds it. Blocking file calls: run on the journal queue.
    ///
    /// It probes with a shared, non-blocking `flock` held for the instant of the probe: a `resume` taking the
    /// claim in that same instant is refused as if the shoot were busy, and can simply be run again.
    static func holder(id: String, in directory: String) -> Int32?? {
        let path = path(ofJournal: id, in: directory)
        guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
        defer { descriptor.closeIgnoringErrors() }
        do {
            try descriptor.tryLock(exclusive: false)
            return nil
        } catch {
            guard JournalStore.errno(of: error) == .wouldBlock else { return nil }
            return .some(holderProcessID(descriptor))
        }
    }

    /// The process id written by the current holder, if the file holds one.
    private static func holderProcessID(_ descriptor: FileDescriptor) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { (try? descriptor.read(into: $0, atOffset: 0)) ?? -1 }
        guard count > 0 else { return nil }
        let digits = buffer[..<count].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return Int32(String(decoding: digits, as: UTF8.self))
    }
}
