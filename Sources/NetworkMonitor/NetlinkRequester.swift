import ByteCoding
import Posix
import Timing

/// Sends requests on its own socket (never the event socket) and collects the matching replies.
///
/// Handles single answers, ACKs, NLMSG_ERROR, and multi-part dumps until NLMSG_DONE (which may come
/// in a datagram of its own); a dump flagged NLM_F_DUMP_INTR is redone. Waiting for a reply parks on the
/// shared `IOEventLoop`, bounded by `timeout` on the injected clock (`withTimeout`), so no thread blocks
/// and a test clock decides when a silent peer has timed out. Runs on its caller's actor.
package final class NetlinkRequester {
    /// How many times an inconsistent dump is redone before giving up.
    package static let dumpAttempts = 3

    /// The request socket.
    package let socket: NetlinkSocket
    private let endpoint: NetlinkEndpoint
    private let timeout: Duration
    private let clock: any Clock<Duration>
    private var nextSequence: UInt32

    /// Sends on `socket` to `endpoint`; each wait for a reply datagram gives up after `timeout` on `clock`.
    package init(
        socket: NetlinkSocket, endpoint: NetlinkEndpoint, timeout: Duration,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.socket = socket
        self.endpoint = endpoint
        self.timeout = timeout
        self.clock = clock
        nextSequence = 1
    }

    /// Sends a request built for a fresh sequence number and returns its reply messages (without DONE/ACK).
    ///
    /// - Throws: `.kernel(request:errno:)` for an NLMSG_ERROR, `.requestTimedOut`, `.dumpInterrupted`;
    ///   `.closed` when the calling task is cancelled.
    package func request(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ build: (UInt32) -> NetlinkMessage
    ) async throws(NetworkMonitorError) -> [NetlinkMessage] {
        for _ in 0..<Self.dumpAttempts {
            let sequence = nextSequence
            nextSequence &+= 1
            let message = build(sequence)
            try socket.send(message.encoded(), to: endpoint.peerPortID)
            let (replies, interrupted) = try await collect(
                name, sequence: sequence, isDump: message.flags.contains(.dump))
            if !interrupted { return replies }
        }
        throw .dumpInterrupted(request: name, attempts: Self.dumpAttempts)
    }

    /// The next datagram from the peer, waiting on the loop for at most `timeout` each time none is queued.
    ///
    /// The kernel answers most requests inside `send` (and fills a dump's next part when the last one is
    /// read), so the wait is the exception; SO_RCVTIMEO is never used.
    private func nextDatagram(
        for name: String, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkMonitorError) -> [UInt8] {
        while true {
            if let datagram = try socket.receive() {
                if datagram.sender == endpoint.peerPortID { return datagram.bytes }
                continue
            }
            let raw = socket.raw
            do {
                try await withTimeout(
                    after: timeout, on: clock, throwing: NetworkMonitorError.requestTimedOut(request: name)
                ) { try await raw.waitUntilReadable() }
            } catch let error as NetworkMonitorError {
                throw error
            } catch let failure as SocketFailure {
                throw NetworkMonitorError(failure)
            } catch {
                throw .closed // cancelled
            }
        }
    }

    private func collect(
        _ name: String, sequence: UInt32, isDump: Bool, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkMonitorError) -> (replies: [NetlinkMessage], interrupted: Bool) {
        var replies: [NetlinkMessage] = []
        var interrupted = false
        while true {
            let datagram = try await nextDatagram(for: name)
            let messages: [NetlinkMessage]
            do { messages = try NetlinkMessage.parseAll(datagram: datagram) } catch {
                throw .malformed(context: "reply to \(name)", Self.byteError(error))
            }
            for message in messages where message.sequence == sequence {
                if message.flags.contains(.dumpInterrupted) { interrupted = true }
                switch message.type {
                case NetlinkMessageType.noop:
                    continue
                case NetlinkMessageType.error:
                    let error: NetlinkErrorPayload
                    do { error = try NetlinkErrorPayload(message: message) } catch {
                        throw .malformed(context: "error reply to \(name)", Self.byteError(error))
                    }
                    if error.isAcknowledgement { return (replies, interrupted) }
                    throw .kernel(request: name, errno: Errno(rawValue: error.errno))
                case NetlinkMessageType.done:
                    var reader = ByteReader(message.payload, order: .host)
                    if let status = try? reader.readInteger(Int32.self, field: "NLMSG_DONE status"), status < 0 {
                        throw .kernel(request: name, errno: Errno(rawValue: -status))
                    }
                    return (replies, interrupted)
                case NetlinkMessageType.overrun:
                    throw .eventsLost
                default:
                    replies.append(message)
                    if !isDump && !message.flags.contains(.multi) { return (replies, interrupted) }
                }
            }
        }
    }

    /// Wraps a parsing error (everything `parseAll` throws is a `ByteCodingError`).
    package static func byteError(_ error: any Error) -> ByteCodingError {
        error as? ByteCodingError ?? .invalidValue(field: "message", reason: "\(error)")
    }
}
