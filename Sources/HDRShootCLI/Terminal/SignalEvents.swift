import Dispatch
import Glibc

/// Signals (SIGINT and SIGTERM unless told otherwise) as an `AsyncStream`, delivered by dispatch signal sources.
///
/// While the stream is alive the signals' default actions are off (so Ctrl-C reaches the shoot instead of
/// killing it); when the stream ends (its task is cancelled) the sources are cancelled and the default
/// actions come back, except SIGHUP once the terminal was let go (`TerminalDetachment`): a late hangup must
/// not kill the process while it finishes the shoot's records.
enum SignalEvents {
    /// A stream of the numbers of `signals` as they arrive.
    static func stream(_ signals: [Int32] = [SIGINT, SIGTERM]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .unbounded)
        let queue = DispatchQueue(label: "hdrshoot.shoot-signals")
        let sources = SignalSources(
            signals.map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { continuation.yield(number) }
                source.resume()
                return source
            })
        continuation.onTermination = { _ in
            queue.async {
                sources.cancel()
                for number in signals {
                    signal(number, number == SIGHUP && TerminalDetachment.isDetached ? SIG_IGN : SIG_DFL)
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
