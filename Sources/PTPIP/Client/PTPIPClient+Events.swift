import PTPIPCodec

extension PTPIPClient {
    /// Reads the event connection until it ends, yielding events and answering Probe Requests.
    ///
    /// Ends quietly when we close the connection (disconnect, cancellation); ends the stream with the
    /// error when the camera closes it or sends something that is not an Event or Probe Request.
    static func readEvents(
        from transport: any Transport, framer: PacketFramer,
        into continuation: AsyncThrowingStream<PTPEvent, any Error>.Continuation, observer: (any PTPIPObserver)?,
        chunkSize: Int, sendTimeout: Duration
    ) async {
        var framer = framer
        do {
            while true {
                while let packet = try framer.nextPacketOrMalformed() {
                    switch packet {
                    case let .event(event):
                        observer?.observe(event)
                        continuation.yield(event)
                    case .probeRequest:
                        // CIPA DC-005 §2.3.16: the responder proves it is alive with a Probe Response.
                        try await transport.send(Packet.probeResponse.encoded(), timeout: sendTimeout)
                    case .probeResponse:
                        break
                    case let other:
                        throw PTPIPError.protocolViolation(
                            expected: "Event or Probe Request on the event connection", received: other.type.description
                        )
                    }
                }
                let count = try await transport.receive(into: &framer, maximumCount: chunkSize, timeout: nil)
                if count == 0 { throw PTPIPError.peerClosed(during: "reading events") }
            }
        } catch {
            if Task.isCancelled || isLocalCancellation(error) {
                continuation.finish()
            } else {
                continuation.finish(throwing: error)
            }
        }
    }

    /// Whether `error` only says that our side closed the connection or cancelled the wait.
    static func isLocalCancellation(_ error: any Error) -> Bool {
        if case .cancelled? = error as? PTPIPError { return true }
        return error is CancellationError
    }
}
