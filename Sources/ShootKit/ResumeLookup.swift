import Foundation
import Shooting

/// The unfinished shoot a `.resume` request names, claimed for this process: the journal read again under its
/// lock, and how many other unfinished shoots there are (a front end may mention them).
package struct ResumeLookup: Sendable {
    /// The journal, read under its lock.
    package var journal: ShootJournal
    /// The lock: held while this process continues the shoot.
    package var lock: JournalLock
    /// Other unfinished shoots when the latest was taken (none when an id was given).
    package var olderUnfinished: Int

    /// Finds the shoot `request` names in `store` (its id, else the latest unfinished one) and locks it: a second
    /// resume, or the run still going, is refused by the lock, not raced. Read again under the lock, so a holder
    /// waited out that finished it meanwhile leaves nothing to resume.
    package static func find(_ request: ResumeRequest, in store: JournalStore) async throws -> ResumeLookup {
        let found: ShootJournal
        var others = 0
        if let id = request.id {
            guard let loaded = try await load(id: id, from: store) else {
                throw ResumeError.noSuchShoot(id: id, stateDirectory: store.directory.path)
            }
            found = loaded
            guard found.isUnfinished else { throw ResumeError.shootComplete(id: id) }
        } else {
            guard let latest = try await store.latestUnfinished() else {
                throw ResumeError.nothingToResume(stateDirectory: store.directory.path)
            }
            found = latest
            others = try await store.unfinished().filter { $0.id != latest.id }.count
        }
        let lock = try await store.lock(id: found.id)
        let journal = try await store.load(id: found.id)
        guard journal.isUnfinished else { throw ResumeError.nothingToResume(stateDirectory: store.directory.path) }
        return ResumeLookup(journal: journal, lock: lock, olderUnfinished: others)
    }

    /// The newest unfinished single bracket (not a series, frames left to shoot) whose output folder is inside
    /// `parent` (`id`: that one only): what a front end that shoots into one folder (`serve`) may offer to resume.
    package static func offered(in parent: String, store: JournalStore, id: String?) async -> ShootJournal? {
        let folderPrefix = parent.hasSuffix("/") ? parent : parent + "/"
        guard let unfinished = try? await store.unfinished() else { return nil }
        return unfinished.first { journal in
            guard journal.series == nil, journal.resumePosition != nil else { return false }
            return journal.outputDirectory.hasPrefix(folderPrefix) && (id == nil || journal.id == id)
        }
    }

    /// The journal `id`, or nil when there is none.
    private static func load(id: String, from store: JournalStore) async throws(JournalError) -> ShootJournal? {
        do {
            return try await store.load(id: id)
        } catch {
            if case .notFound = error { return nil }
            throw error
        }
    }
}

/// Why a `.resume` request finds nothing to continue.
package enum ResumeError: Error, Sendable, Equatable {
    /// No unfinished shoot in the state folder.
    case nothingToResume(stateDirectory: String)
    /// The id names no journal.
    case noSuchShoot(id: String, stateDirectory: String)
    /// The id names a complete shoot.
    case shootComplete(id: String)
}
