import Synchronization

/// The one multicast stream of a shoot's updates: every subscriber first gets a snapshot of the whole state, then
/// every update after it, in order.
///
/// Publishing never waits for a subscriber. A subscriber with a limit (a web page) that falls that many updates
/// behind gets its backlog replaced by one snapshot of the current state: latest state wins, nothing grows
/// without bound. A subscriber without a limit (the terminal of the same process, which prints every line) keeps
/// every update.
package final class UpdateBroadcaster: Sendable {
    private struct Subscriber {
        var buffer: [ShootUpdate] = []
        var limit: Int?
        var waiter: CheckedContinuation<ShootUpdate?, Never>?
        /// No more updates are added; the buffer is still handed out.
        var ended = false
        /// Dropped at once (its task was cancelled).
        var cancelled = false
    }

    private struct State {
        var snapshot = ShootSnapshot()
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var finished = false
    }

    private let state = Mutex(State())

    /// A broadcaster of an idle shoot.
    package init() {}

    /// The state now.
    package var snapshot: ShootSnapshot { state.withLock { $0.snapshot } }

    /// Applies `update` to the snapshot and hands it to every subscriber; ignored once finished.
    package func publish(_ update: ShootUpdate) {
        let wakeups = state.withLock { state -> [(CheckedContinuation<ShootUpdate?, Never>, ShootUpdate)] in
            guard !state.finished else { return [] }
            state.snapshot = state.snapshot.applying(update)
            var wakeups: [(CheckedContinuation<ShootUpdate?, Never>, ShootUpdate)] = []
            for id in state.subscribers.keys {
                guard var subscriber = state.subscribers[id], !subscriber.ended, !subscriber.cancelled else { continue }
                if let waiter = subscriber.waiter {
                    subscriber.waiter = nil
                    wakeups.append((waiter, update))
                } else {
                    subscriber.buffer.append(update)
                    if let limit = subscriber.limit, subscriber.buffer.count > limit {
                        subscriber.buffer = [.snapshot(state.snapshot)]
                    }
                }
                state.subscribers[id] = subscriber
            }
            return wakeups
        }
        for (waiter, update) in wakeups { waiter.resume(returning: update) }
    }

    /// A new subscription: its first update is the snapshot of the state now. `limit`: the most updates it may
    /// fall behind before its backlog becomes one snapshot; nil keeps every update.
    package func subscribe(limit: Int? = nil) -> ShootUpdates {
        let id = state.withLock { state -> Int in
            let id = state.nextID
            state.nextID += 1
            var subscriber = Subscriber(limit: limit.map { max(1, $0) })
            subscriber.buffer = [.snapshot(state.snapshot)]
            subscriber.ended = state.finished
            state.subscribers[id] = subscriber
            return id
        }
        return ShootUpdates(broadcaster: self, id: id)
    }

    /// Ends every subscription (after what it holds) and takes no more updates.
    package func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<ShootUpdate?, Never>] in
            state.finished = true
            return state.subscribers.keys.compactMap { id in endLocked(id, in: &state) }
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// Ends one subscription after what it holds.
    fileprivate func end(_ id: Int) {
        let waiter = state.withLock { state in endLocked(id, in: &state) }
        waiter?.resume(returning: nil)
    }

    private func endLocked(_ id: Int, in state: inout State) -> CheckedContinuation<ShootUpdate?, Never>? {
        guard var subscriber = state.subscribers[id] else { return nil }
        subscriber.ended = true
        let waiter = subscriber.waiter
        subscriber.waiter = nil
        state.subscribers[id] = subscriber
        return waiter
    }

    /// Drops one subscription at once.
    fileprivate func cancel(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<ShootUpdate?, Never>? in
            guard var subscriber = state.subscribers[id] else { return nil }
            subscriber.cancelled = true
            subscriber.buffer = []
            let waiter = subscriber.waiter
            subscriber.waiter = nil
            state.subscribers[id] = subscriber
            return waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next update of subscription `id`; nil once it ended and is drained, or was cancelled.
    fileprivate func next(_ id: Int) async -> ShootUpdate? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> ShootUpdate?? in
                    guard var subscriber = state.subscribers[id] else { return .some(nil) }
                    if subscriber.cancelled {
                        state.subscribers[id] = nil
                        return .some(nil)
                    }
                    if !subscriber.buffer.isEmpty {
                        let update = subscriber.buffer.removeFirst()
                        state.subscribers[id] = subscriber
                        return .some(update)
                    }
                    if subscriber.ended {
                        state.subscribers[id] = nil
                        return .some(nil)
                    }
                    subscriber.waiter = continuation
                    state.subscribers[id] = subscriber
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            cancel(id)
        }
    }
}

/// One subscriber's updates: a snapshot first, then each update in order, until the shoot's broadcaster
/// finishes or `end()` is called. One consumer.
package struct ShootUpdates: AsyncSequence, Sendable {
    package typealias Element = ShootUpdate

    fileprivate let broadcaster: UpdateBroadcaster
    fileprivate let id: Int

    /// Ends this subscription: what it already holds is still handed out, then iteration ends.
    package func end() { broadcaster.end(id) }

    /// The iterator.
    package struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let broadcaster: UpdateBroadcaster
        fileprivate let id: Int

        /// The next update, or nil at the end.
        package mutating func next() async -> ShootUpdate? { await broadcaster.next(id) }
    }

    /// Iterates the updates.
    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(broadcaster: broadcaster, id: id) }
}
