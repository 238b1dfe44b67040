import Synchronization

/// The bytes and revision of the journal files this process wrote last, so a save can skip decoding a file
/// that is, byte for byte, the one we wrote.
///
/// Why bytes and not the file's stat stamp (device, inode, size, mtime): timestamps come from the kernel's
/// coarse clock (a tick of 1-4 ms), so a same-size edit made in place within the tick of our write keeps
/// every stamp field and would pass for ours. Comparing the content costs one read of a file that is in the
/// page cache (a few µs for a 100-frame journal) and proves what decoding it would prove: bytes we encoded
/// from a journal of revision R decode to revision R. Anything else (another file renamed over it, an edit,
/// truncation, the first save of a journal written by another process) differs and is decoded in full, so
/// a corrupt file is still reported and never overwritten.
package final class JournalWriteMemo: Sendable {
    /// What was written to one path.
    struct Entry {
        /// The exact bytes renamed into place.
        var bytes: [UInt8]
        /// The revision those bytes encode.
        var revision: Int
    }

    /// Paths remembered at most; a process writes one shoot's journal, tests write many.
    package static let capacity = 8

    private let entries = Mutex<[String: Entry]>([:])

    /// Creates an empty memo.
    package init() {}

    /// Remembers that `bytes` (revision `revision`) are now the content of `path`.
    package func remember(_ bytes: [UInt8], revision: Int, at path: String) {
        entries.withLock { entries in
            if entries[path] == nil, entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[path] = Entry(bytes: bytes, revision: revision)
        }
    }

    /// The revision of `content` when it is exactly what was last written to `path`, else `nil`.
    package func revision(ifWritten content: [UInt8], at path: String) -> Int? {
        entries.withLock { entries -> Int? in
            guard let entry = entries[path], entry.bytes == content else { return nil }
            return entry.revision
        }
    }
}
