import Synchronization

/// One state as the page receives it: the SSE `id:` and the JSON of the application layer's update type.
package struct RemoteEvent: Sendable, Equatable {
    /// Counts up from 1 with every state the shoot publishes.
    package var id: Int
    /// The state's JSON.
    package var data: [UInt8]

    /// The event on the wire: `id:`, one `data:` line (the JSON has no newline), a blank line.
    package var encoded: [UInt8] { Array("id: \(id)\ndata: ".utf8) + data + Array("\n\n".utf8) }
}

/// Fans the shoot's states out to every watching page without ever making the shoot wait.
///
/// `publish` takes a lock for a few assignments and returns: each watcher has a mailbox that holds one state,
/// the latest, so a page that reads slowly (or a phone that sleeps) gets the newest state when it reads again,
/// never a backlog, and costs the shoot nothing.
package final class EventHub: Sendable {
    private struct State {
        var latest: RemoteEvent?
        var mailboxes: [ObjectIdentifier: EventMailbox] = [:]
    }

    private let state = Mutex(State())

    /// Creates a hub with no state yet.
    package init() {}

    /// The latest state, nil before the first.
    package var latest: RemoteEvent? { state.withLock { $0.latest } }

    /// How many pages watch now.
    package var watcherCount: Int { state.withLock { $0.mailboxes.count } }

    /// Hands `data` to every watcher as the next event (replacing whatever they had not read yet).
    package func publish(_ data: [UInt8]) {
        let (event, mailboxes) = state.withLock { state in
            let event = RemoteEvent(id: (state.latest?.id ?? 0) + 1, data: data)
            state.latest = event
            return (event, Array(state.mailboxes.values))
        }
        for mailbox in mailboxes { mailbox.offer(event) }
    }

    /// A new watcher's mailbox, holding the latest state already: a new or reconnecting page's first event is
    /// the whole state.
    package func subscribe() -> EventMailbox {
        let mailbox = EventMailbox()
        let latest = state.withLock { state in
            state.mailboxes[ObjectIdentifier(mailbox)] = mailbox
            return state.latest
        }
        if let latest { mailbox.offer(latest) }
        return mailbox
    }

    /// Forgets a watcher (its page went away).
    package func unsubscribe(_ mailbox: EventMailbox) {
        _ = state.withLock { $0.mailboxes.removeValue(forKey: ObjectIdentifier(mailbox)) }
        mailbox.close()
    }
}

/// One watcher's queue: at most one state (the latest) and a keep-alive flag; the writer awaits `next()`.
package final class EventMailbox: Sendable {
    /// What the writer gets next.
    package enum Item: Sendable, Equatable {
        /// A state to send.
        case event(RemoteEvent)
        /// Nothing new for a while: send a comment so proxies and phones keep the stream.
        case keepAlive
    }

    private struct State {
        var pending: RemoteEvent?
        var keepAliveDue = false
        var closed = false
        var waiter: CheckedContinuation<Item?, Never>?
    }

    private let state = Mutex(State())

    /// Offers a state; it replaces an unread one.
    func offer(_ event: RemoteEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            guard !state.closed else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = event
            return nil
        }
        waiter?.resume(returning: .event(event))
    }

    /// Asks for a keep-alive when no state is waiting.
    package func keepAliveDue() {
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            guard !state.closed else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.keepAliveDue = true
            return nil
        }
        waiter?.resume(returning: .keepAlive)
    }

    /// Ends the mailbox: a waiting `next()` returns nil, and so does every later one.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next state (before any keep-alive), or nil once closed or cancelled.
    package func next() async -> Item? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Item?, Never>) in
                let ready = state.withLock { state -> Item?? in
                    if let event = state.pending {
                        state.pending = nil
                        return .some(.event(event))
                    }
                    if state.keepAliveDue {
                        state.keepAliveDue = false
                        return .some(.keepAlive)
                    }
                    if state.closed { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            close()
        }
    }
}
