import Synchronization

/// What the photographer has asked of a shoot or a series from the keyboard and with Ctrl-C so far: how many
/// stops (Ctrl-C or q), and whether it is paused (space or p). One per console session, shared by the
/// single-bracket and the series sessions so the two count stops and pauses the same way.
final class ConsoleRequests: Sendable {
    private let state = Mutex<(stops: Int, paused: Bool)>((0, false))

    /// Counts a Ctrl-C; returns how many there have been (1: stop after the frame, 2 or more: abandon it).
    func interrupt() -> Int {
        state.withLock { state in
            state.stops += 1
            return state.stops
        }
    }

    /// Counts a q; true when no stop had been asked for before it (a later q changes nothing).
    func quit() -> Bool {
        state.withLock { state in
            defer { state.stops = max(state.stops, 1) }
            return state.stops == 0
        }
    }

    /// Space or p: pauses or continues; true when it is now paused.
    func togglePause() -> Bool {
        state.withLock { state in
            state.paused.toggle()
            return state.paused
        }
    }

    /// The terminal is gone: a pause from the keyboard could never be lifted, so it counts as a stop. True when
    /// it was paused from the keyboard (the caller then stops the shoot).
    func stopIfPausedFromTheKeyboard() -> Bool {
        state.withLock { state in
            defer { if state.paused { state.stops = max(state.stops, 1) } }
            return state.paused
        }
    }
}
