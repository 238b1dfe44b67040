import Dispatch
import Posix
import Synchronization

/// Key presses on standard input as an `AsyncStream` of bytes.
///
/// A dedicated dispatch thread polls the descriptor (100 ms at a time, so it notices when the stream ends)
/// and reads what arrived; the cooperative pool never blocks. The stream ends at end of input, on a read
/// error, or when its consumer goes away.
enum KeyboardInput {
    /// The bytes typed on `descriptor` from now on.
    static func keys(descriptor: FileDescriptor = .standardInput) -> AsyncStream<UInt8> {
        let (stream, continuation) = AsyncStream.makeStream(of: UInt8.self, bufferingPolicy: .unbounded)
        let stopped = StopFlag()
        continuation.onTermination = { _ in stopped.set() }
        DispatchQueue(label: "hdrshoot.keyboard").async {
            var buffer = [UInt8](repeating: 0, count: 16)
            while !stopped.isSet {
                // Posix retries EINTR; any other failure, like end of input, ends the stream.
                guard let ready = try? descriptor.waitUntilReadable(timeout: .milliseconds(100)) else { break }
                if !ready { continue }
                let count = buffer.withUnsafeMutableBytes { raw in (try? descriptor.read(into: raw)) ?? 0 }
                guard count > 0 else { break }
                for byte in buffer[0..<count] { continuation.yield(byte) }
            }
            continuation.finish()
        }
        return stream
    }

    /// Set once, read from the reader thread.
    private final class StopFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        func set() { flag.store(true, ordering: .releasing) }
        var isSet: Bool { flag.load(ordering: .acquiring) }
    }
}

/// A question answered with one line on standard input, read off the cooperative pool (`runBlocking`).
enum LineInput {
    /// The next line of standard input without its newline, or `nil` at end of input.
    static func readLine() async -> String? {
        // Not cancellable halfway: the line a person typed is never dropped.
        await runBlocking(on: .global()) { Swift.readLine(strippingNewline: true) }
    }
}
