extension ShootController {
    /// Puts `target` in hand as the shoot's run (state shooting) and applies to it what was asked before it was in
    /// hand; returns what an `abandon()` yields on.
    func takeRun(_ target: any ShootControllable) async -> AsyncStream<Void> {
        let (abandon, abandonSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        var pending = Pending()
        if case .shooting(_, let waiting) = state { pending = waiting }
        enter(.shooting(Run(target: target, abandon: abandonSink), Pending()))
        // What was asked before this run was in hand applies to it from its start.
        for action in pending.actions {
            switch action {
            case .pause(let reason): await target.pause(reason: reason)
            case .resume(let reason): await target.resume(reason: reason)
            case .stop: await target.stop()
            case .abandon: abandonSink.yield()
            }
        }
        return abandon
    }

    /// Re-checked after the run's awaits: the run is no longer in hand.
    func dropRun() {
        switch state {
        case .shooting: state = .shooting(nil, Pending())
        case .waiting: state = .waiting(nil, Pending())
        default: break
        }
    }

    /// A series waits for its next repetition (`waiting`) or shoots one: the run in hand stays.
    func betweenRepetitions(waiting: Bool) {
        switch state {
        case .shooting(let run, let pending) where waiting: enter(.waiting(run, pending))
        case .waiting(let run, let pending) where !waiting: enter(.shooting(run, pending))
        default: break
        }
    }

    /// Runs `work` to its end; an element of `abandon` cancels it first (it still returns its result).
    static func running<Result: Sendable>(
        abandonedBy abandon: AsyncStream<Void>, _ work: @escaping @Sendable () async -> Result
    ) async -> Result {
        await withTaskGroup(of: Result?.self) { group in
            group.addTask { await work() }
            group.addTask {
                for await _ in abandon { return nil }
                return nil
            }
            var result: Result?
            while let value = await group.next() {
                if let value { result = value }
                group.cancelAll()
            }
            guard let result else { preconditionFailure("the runner always returns a result") }
            return result
        }
    }
}
