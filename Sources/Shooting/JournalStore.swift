import Dispatch
import Foundation
import Posix

/// Why the journal could not be read or written; every case names the file.
package enum JournalError: Error, Sendable, Equatable {
    /// The state directory could not be created or opened.
    case stateDirectoryUnavailable(path: String, errno: Errno)
    /// No usable state directory: neither an option, nor `$HDRSHOOT_STATE_DIR`, `$XDG_STATE_HOME` or `$HOME`.
    case noStateDirectory
    /// The file is not a journal (damaged or edited); it is left as it is.
    case corrupt(path: String, detail: String)
    /// The file could not be read.
    case unreadable(path: String, errno: Errno)
    /// The journal was written by a newer hdrshoot.
    case unsupportedFormat(path: String, format: Int)
    /// No space left (ENOSPC/EDQUOT); the previous journal is intact.
    case diskFull(path: String)
    /// Writing failed for another reason; the previous journal is intact.
    case writeFailed(path: String, errno: Errno)
    /// A new shoot's journal already exists.
    case alreadyExists(path: String)
    /// No journal with this id.
    case notFound(id: String)
    /// Another process holds the journal's lock (`JournalLock`): it is shooting this shoot now.
    case inUse(path: String, processID: Int32?)

    /// No journal error goes away by retrying at once.
    package var isTransient: Bool { false }
}

/// One entry of the state directory: a journal, or a file that could not be read as one.
package enum JournalListing: Sendable {
    /// A readable journal.
    case journal(ShootJournal)
    /// A `.json` file that is not a readable journal.
    case unreadable(path: String, error: JournalError)
}

/// Reads and writes shoot journals in the state directory, one `<id>.json` per shoot.
///
/// Files are written atomically (temp file, fsync, rename, fsync of the directory), created 0600 in a
/// 0700 directory. All file work runs on one serial dispatch queue, never on the cooperative pool, and
/// saves happen in call order. A file that does not decode is never overwritten.
package struct JournalStore: Sendable {
    /// The state directory.
    package let directory: URL
    /// Injected write faults (none outside tests).
    let faults: JournalFaults

    private static let queue = DispatchQueue(label: "hdrshoot.journal")
    /// What this process last wrote to each journal file (used on the journal queue).
    private static let written = JournalWriteMemo()

    /// A store in `directory` (see `resolveDirectory` for the usual one).
    package init(directory: URL) {
        self.init(directory: directory, faults: .none)
    }

    /// A store with injected write faults, for tests.
    package init(directory: URL, faults: JournalFaults) {
        self.directory = directory
        self.faults = faults
    }

    /// The state directory: `option` (`--state-dir`), else `$HDRSHOOT_STATE_DIR`, else
    /// `$XDG_STATE_HOME/hdrshoot`, else `$HOME/.local/state/hdrshoot`. Empty variables count as unset and a
    /// relative `$XDG_STATE_HOME` is ignored, as the XDG spec says.
    package static func resolveDirectory(
        option: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(JournalError) -> URL {
        func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
        func absolute(_ path: String) -> URL {
            path.hasPrefix("/")
                ? URL(fileURLWithPath: path) : URL(fileURLWithPath: currentDirectory).appendingPathComponent(path)
        }
        if let option = nonEmpty(option) { return absolute(option).standardizedFileURL }
        if let explicit = nonEmpty(environment["HDRSHOOT_STATE_DIR"]) { return absolute(explicit).standardizedFileURL }
        guard let folder = UserDirectory.state.path(environment: environment) else { throw .noStateDirectory }
        return URL(fileURLWithPath: folder)
    }

    /// The file of the journal `id`.
    package func url(ofJournal id: String) -> URL { directory.appendingPathComponent("\(id).json") }

    // MARK: - Writing

    /// Creates the state directory (0700) when missing.
    package func prepare() async throws(JournalError) {
        let path = directory.path
        try await perform { () throws(JournalError) in
            do {
                try FileSystem.makeDirectories(path, permissions: 0o700)
            } catch {
                throw .stateDirectoryUnavailable(path: path, errno: Self.errno(of: error))
            }
        }
    }

    /// Writes the journal of a new shoot; fails when one with its id exists.
    package func create(_ journal: ShootJournal) async throws(JournalError) {
        try await prepare()
        try await write(journal, replacing: false)
    }

    /// Claims the journal `id` for this process (see `JournalLock`); throws `.inUse` when another process
    /// holds it. Keep the lock alive for as long as the shoot runs.
    package func lock(id: String) async throws(JournalError) -> JournalLock {
        try await prepare()
        let directoryPath = directory.path
        return try await perform { () throws(JournalError) in try JournalLock.acquire(id: id, in: directoryPath) }
    }

    /// Whether another process shoots journal `id` right now: `nil` when none does, else the holder's pid
    /// (itself nil when the lock file does not name it). See `JournalLock.holder(id:in:)`.
    package func holder(id: String) async -> Int32?? {
        let directoryPath = directory.path
        return await runBlocking(on: Self.queue) { JournalLock.holder(id: id, in: directoryPath) }
    }

    /// Replaces the journal's file atomically; refuses to replace a file that is not a readable journal,
    /// and leaves the file alone when it already holds this revision or a newer one.
    package func save(_ journal: ShootJournal) async throws(JournalError) {
        try await write(journal, replacing: true)
    }

    private func write(_ journal: ShootJournal, replacing: Bool) async throws(JournalError) {
        let path = url(ofJournal: journal.id).path
        let directoryPath = directory.path
        let faults = self.faults
        let bytes: [UInt8]
        do {
            bytes = Array(try Self.encoder.encode(journal))
        } catch {
            preconditionFailure("a journal always encodes: \(error)")
        }
        try await perform { () throws(JournalError) in
            if FileSystem.exists(path) {
                guard replacing else { throw .alreadyExists(path: path) }
                // Never overwrite what we cannot read; skip a snapshot older than the file. The file is
                // decoded unless it is exactly the bytes we wrote last (see `JournalWriteMemo`).
                let current = try Self.read(at: path)
                let revision: Int
                if let ours = Self.written.revision(ifWritten: current, at: path) {
                    revision = ours
                } else {
                    revision = try Self.decode(current, at: path).revision
                }
                if revision >= journal.revision { return }
            }
            do {
                try JournalFile.writeAtomically(bytes, to: path, directory: directoryPath, faults: faults)
                Self.written.remember(bytes, revision: journal.revision, at: path)
            } catch let error as Errno {
                let full = error == .noSpace || error == .diskQuotaExceeded
                throw full ? .diskFull(path: path) : .writeFailed(path: path, errno: error)
            } catch {
                // Only the injected crash gets here; a real crash would not return at all.
                throw .writeFailed(path: path, errno: .ioError)
            }
        }
    }

    // MARK: - Reading

    /// The journal `id`.
    package func load(id: String) async throws(JournalError) -> ShootJournal {
        let path = url(ofJournal: id).path
        return try await perform { () throws(JournalError) in
            guard FileSystem.exists(path) else { throw .notFound(id: id) }
            return try Self.decode(at: path)
        }
    }

    /// Every journal file, newest first (by id, which starts with the UTC creation time).
    package func list() async throws(JournalError) -> [JournalListing] {
        let directoryPath = directory.path
        return try await perform { () throws(JournalError) in
            guard FileSystem.exists(directoryPath) else { return [] }
            let names: [String]
            do {
                names = try FileSystem.contentsOfDirectory(directoryPath)
            } catch {
                throw .stateDirectoryUnavailable(path: directoryPath, errno: Self.errno(of: error))
            }
            return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted(by: >).map { name in
                let path = directoryPath + "/" + name
                do throws(JournalError) {
                    return .journal(try Self.decode(at: path))
                } catch {
                    return .unreadable(path: path, error: error)
                }
            }
        }
    }

    /// The newest journal, or `nil` when there is none; throws when the newest file is unreadable.
    package func latest() async throws(JournalError) -> ShootJournal? {
        switch try await list().first {
        case nil: return nil
        case .journal(let journal): return journal
        case .unreadable(_, let error): throw error
        }
    }

    /// The newest journal with frames left to shoot, for `hdrshoot resume`; throws when an unreadable file
    /// is newer than it (it might be the shoot meant, so it is reported rather than passed over).
    package func latestUnfinished() async throws(JournalError) -> ShootJournal? {
        for listing in try await list() {
            switch listing {
            case .journal(let journal) where journal.isUnfinished: return journal
            case .journal: continue
            case .unreadable(_, let error): throw error
            }
        }
        return nil
    }

    /// Every readable journal with frames left to shoot, newest first (the first is what `resume` continues);
    /// unreadable files are left out (`latestUnfinished()` reports them).
    package func unfinished() async throws(JournalError) -> [ShootJournal] {
        try await list().compactMap { listing in
            if case .journal(let journal) = listing, journal.isUnfinished { return journal }
            return nil
        }
    }

    // MARK: - Coding

    /// Compact, key-sorted JSON with ISO 8601 dates and unescaped slashes.
    ///
    /// Compact rather than pretty-printed: the journal is written twice per frame and pretty-printing made
    /// each save about 35% slower (`hdrshoot-bench journal`: 226 -> 145 µs of local work per save for
    /// 15 frames); a person reads it with `hdrshoot status` or `jq . <file>`. Sorted keys keep the bytes
    /// deterministic, so identical journals give identical files (diffable, and cheap to verify).
    /// Readers never depend on the layout: older pretty-printed journals decode the same.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The twin of `encoder`.
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The errno of a file error (EIO for anything else, which does not happen).
    static func errno(of error: any Error) -> Errno { error as? Errno ?? .ioError }

    private struct FormatProbe: Decodable { var format: Int }

    /// Reads and decodes one journal file (blocking).
    static func decode(at path: String) throws(JournalError) -> ShootJournal {
        try decode(read(at: path), at: path)
    }

    /// The content of the journal file at `path` (blocking).
    static func read(at path: String) throws(JournalError) -> [UInt8] {
        do {
            return try FileSystem.readAll(path)
        } catch {
            throw .unreadable(path: path, errno: errno(of: error))
        }
    }

    /// Decodes the content of the journal file at `path`.
    static func decode(_ bytes: [UInt8], at path: String) throws(JournalError) -> ShootJournal {
        let data = Data(bytes)
        do {
            let format = try decoder.decode(FormatProbe.self, from: data).format
            guard format <= ShootJournal.currentFormat else {
                throw JournalError.unsupportedFormat(path: path, format: format)
            }
            return try decoder.decode(ShootJournal.self, from: data)
        } catch let error as JournalError {
            throw error
        } catch {
            throw .corrupt(path: path, detail: String(describing: error))
        }
    }

    /// Runs blocking file work on the journal queue and waits for it without blocking the pool.
    private func perform<T: Sendable>(
        _ work: @escaping @Sendable () throws(JournalError) -> T
    ) async throws(JournalError) -> T {
        try await runBlocking(on: Self.queue, work)
    }
}
