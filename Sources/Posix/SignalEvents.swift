import Dispatch
import Glibc

/// A signal the process handles itself.
package struct Signal: RawRepresentable, Sendable, Hashable {
    /// The signal number.
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// SIGINT: Ctrl-C.
    package static let interrupt = Signal(rawValue: SIGINT)
    /// SIGTERM: `kill`, a service manager stopping us.
    package static let terminate = Signal(rawValue: SIGTERM)
    /// SIGHUP: the terminal hung up (a dropped SSH session, a closed window).
    package static let hangup = Signal(rawValue: SIGHUP)

    /// SIGKILL: the end that cannot be refused.
    package static let kill = Signal(rawValue: SIGKILL)

    /// Ignores the signal from now on (`SIG_IGN`).
    package func ignore() { signal(rawValue, SIG_IGN) }

    /// Sends the signal to the process `pid` (a child this process started; never a group or a name).
    package func send(to pid: Int32) {
        precondition(pid > 0, "a signal goes to one process, never to a group")
        _ = Glibc.kill(pid, rawValue)
    }
}

/// Signals as an `AsyncStream`, delivered by dispatch signal sources.
///
/// While the stream is alive the signals' default actions are off (so Ctrl-C reaches the shoot instead of
/// killing it); when the stream ends (its task is cancelled) the sources are cancelled and the default
/// actions come back, except for a signal `keepIgnored` names then (a late hangup must not kill the process
/// while it finishes the shoot's records once the terminal was let go).
package enum SignalEvents {
    /// A stream of `signals` as they arrive.
    package static func stream(
        _ signals: [Signal], keepIgnored: @escaping @Sendable (Signal) -> Bool = { _ in false }
    ) -> AsyncStream<Signal> {
        let (stream, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .unbounded)
        let queue = DispatchQueue(label: "hdrshoot.signals")
        let sources = SignalSources(
            signals.map { number in
                number.ignore()
                let source = DispatchSource.makeSignalSource(signal: number.rawValue, queue: queue)
                source.setEventHandler { continuation.yield(number) }
                source.resume()
                return source
            })
        continuation.onTermination = { _ in
            queue.async {
                sources.cancel()
                for number in signals {
                    signal(number.rawValue, keepIgnored(number) ? SIG_IGN : SIG_DFL)
                }
            }
        }
        return stream
    }

    /// The sources of one stream, handed to its termination handler.
    private final class SignalSources: @unchecked Sendable {
        // Only touched on the stream's queue after creation.
        private let sources: [any DispatchSourceSignal]

        init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }

        func cancel() { for source in sources { source.cancel() } }
    }
}
