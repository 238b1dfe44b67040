import Posix
import Synchronization

/// After SIGHUP (a dropped SSH session, a closed terminal window) the terminal is gone, but the shoot goes on:
/// from then on nothing is written to standard output or standard error where they are that terminal (a
/// write could fail or block, and nobody reads it), and SIGHUP stays ignored until the process ends.
///
/// Streams redirected to a file or a pipe keep being written: only the terminal is let go.
enum TerminalDetachment {
    /// Bit 0: standard output is muted; bit 1: standard error; bit 2: detached at all.
    private static let state = Atomic<UInt8>(0)

    /// Lets the terminal go: mutes each standard stream that is a terminal and keeps SIGHUP ignored.
    static func detach() {
        var bits: UInt8 = 0b100
        if TerminalMode.isTerminal(.standardOutput) { bits |= 0b001 }
        if TerminalMode.isTerminal(.standardError) { bits |= 0b010 }
        state.bitwiseOr(bits, ordering: .sequentiallyConsistent)
        Signal.hangup.ignore()
    }

    /// Whether `signal` stays ignored when a signal stream ends: a hangup once the terminal was let go.
    @Sendable static func keepsIgnored(_ signal: Signal) -> Bool { signal == .hangup && isDetached }

    /// Whether the terminal was let go.
    static var isDetached: Bool { state.load(ordering: .acquiring) & 0b100 != 0 }

    /// Whether writes to `descriptor` (1 or 2) are dropped.
    static func isMuted(_ descriptor: FileDescriptor) -> Bool {
        let bits = state.load(ordering: .acquiring)
        switch descriptor {
        case .standardOutput: return bits & 0b001 != 0
        case .standardError: return bits & 0b010 != 0
        default: return false
        }
    }
}
