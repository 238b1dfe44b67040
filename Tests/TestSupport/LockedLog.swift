import Synchronization

/// Collects values appended from any task or thread (a peer script, a monitor thread, a server loop) for
/// the test to read afterwards; a lock guards the array.
package final class LockedLog<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    /// Creates an empty log.
    package init() {}

    /// Appends `item`.
    package func append(_ item: Element) { items.withLock { $0.append(item) } }

    /// Everything appended so far, oldest first.
    package var all: [Element] { items.withLock { $0 } }

    /// Forgets everything appended so far (what follows starts a fresh record).
    package func removeAll() { items.withLock { $0.removeAll() } }
}

/// A flag one task sets and another reads; a lock guards it.
package final class Flag: Sendable {
    private let value = Mutex(false)

    /// Creates a flag that is not set.
    package init() {}

    /// Sets the flag.
    package func set() { value.withLock { $0 = true } }

    /// Whether `set()` was called.
    package var isSet: Bool { value.withLock { $0 } }
}
