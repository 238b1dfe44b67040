/// The console side of a shoot or a series, run beside it: the work itself, the event display, the keyboard
/// and stop controls, and (on a live terminal) a once-a-second redraw. Shared by `ShootSession` and
/// `SeriesSession`.
enum ConsoleTasks {
    private enum Outcome<Result: Sendable>: Sendable {
        case result(Result)
        case eventsEnded
        case other
    }

    /// Runs `work`, `showEvents` (until the work's event stream ends) and `controls` side by side, plus `tick`
    /// every second when given; returns the work's result once it is there and every event is shown (the
    /// controls and the clock are then cancelled).
    static func run<Result: Sendable>(
        work: @escaping @Sendable () async -> Result,
        showEvents: @escaping @Sendable () async -> Void,
        controls: @escaping @Sendable () async -> Void,
        tick: (@Sendable () -> Void)?
    ) async -> Result {
        await withTaskGroup(of: Outcome<Result>.self) { group in
            group.addTask { .result(await work()) }
            group.addTask {
                await showEvents()
                return .eventsEnded
            }
            group.addTask {
                await controls()
                return .other
            }
            if let tick {
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        tick()
                    }
                    return .other
                }
            }
            var result: Result?
            var eventsEnded = false
            while let outcome = await group.next() {
                switch outcome {
                case .result(let value): result = value
                case .eventsEnded: eventsEnded = true
                case .other: break
                }
                if result != nil && eventsEnded { group.cancelAll() }
            }
            guard let result else { preconditionFailure("the work child always returns a result") }
            return result
        }
    }
}
