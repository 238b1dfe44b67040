import ByteCoding
import Posix

/// Sends requests on its own socket (never the event socket) and collects the matching replies.
///
/// Handles single answers, ACKs, NLMSG_ERROR, and multi-part dumps until NLMSG_DONE (which may come
/// in a datagram of its own); a dump flagged NLM_F_DUMP_INTR is redone. Blocking: call it only
/// from the monitor's dedicated thread.
package final class NetlinkRequester {
    /// How many times an inconsistent dump is redone before giving up.
    package static let dumpAttempts = 3

    /// The request socket.
    package let socket: NetlinkSocket
    private let endpoint: NetlinkEndpoint
    private var nextSequence: UInt32

    /// Opens a request socket for `endpoint`; receives give up after `timeout`.
    package init(endpoint: NetlinkEndpoint, timeout: Duration) throws(NetworkMonitorError) {
        socket = try NetlinkSocket(netlinkProtocol: endpoint.netlinkProtocol)
        try socket.setReceiveTimeout(timeout)
        self.endpoint = endpoint
        nextSequence = 1
    }

    /// Sends a request built for a fresh sequence number and returns its reply messages (without DONE/ACK).
    ///
    /// - Throws: `.kernel(request:errno:)` for an NLMSG_ERROR, `.requestTimedOut`, `.dumpInterrupted`.
    package func request(
        _ name: String, _ build: (UInt32) -> NetlinkMessage
    ) throws(NetworkMonitorError) -> [NetlinkMessage] {
        for _ in 0..<Self.dumpAttempts {
            let sequence = nextSequence
            nextSequence &+= 1
            let message = build(sequence)
            try socket.send(message.encoded(), to: endpoint.peerPortID)
            let (replies, interrupted) = try collect(name, sequence: sequence, isDump: message.flags.contains(.dump))
            if !interrupted { return replies }
        }
        throw .dumpInterrupted(request: name, attempts: Self.dumpAttempts)
    }

    private func collect(
        _ name: String, sequence: UInt32, isDump: Bool
    ) throws(NetworkMonitorError)
        -> (replies: [NetlinkMessage], interrupted: Bool)
    {
        var replies: [NetlinkMessage] = []
        var interrupted = false
        while true {
            let datagram: (bytes: [UInt8], sender: UInt32)?
            do { datagram = try socket.receive() } catch {
                if case .system(_, .wouldBlock) = error { throw .requestTimedOut(request: name) }
                throw error
            }
            guard let datagram, datagram.sender == endpoint.peerPortID else { continue }
            let messages: [NetlinkMessage]
            do { messages = try NetlinkMessage.parseAll(datagram: datagram.bytes) } catch {
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
