import PTPIPCodec

extension PTPIPClient {
    /// Reads the command connection until the Operation Response of `transactionID`, reassembling a
    /// data-in phase on the way (collected into the result, or streamed to `sink`).
    ///
    /// The codec's `DataPhaseReceiver` checks the data phase itself (transaction ids, Start Data first,
    /// exactly the announced total); this adds the response checks: it belongs to this transaction and
    /// does not cut a data phase short.
    func receiveResponse(
        to code: OperationCode, transactionID: UInt32, sink: DataSink?, timeout: Duration
    ) async throws -> OperationResult {
        var receiver = DataPhaseReceiver(transactionID: transactionID)
        var collected: [UInt8] = []
        let limit = configuration.maximumCollectedDataLength
        while true {
            let next: Frame?
            do {
                next = try commandFramer.nextFrame()
            } catch {
                throw PTPIPError.malformed(error)
            }
            guard let frame = next else {
                let inDataPhase = if case .receiving = receiver.state { true } else { false }
                try await receiveCommandBytes(for: code, inDataPhase: inDataPhase, timeout: timeout)
                continue
            }
            if sink == nil, case let .packet(.startData(_, total)) = frame {
                // Refuse before allocating: a camera announcing gigabytes must not make us reserve them.
                guard total <= UInt64(limit) else {
                    throw PTPIPError.protocolViolation(
                        expected: "at most \(limit) bytes of data (larger needs a sink)",
                        received: "Start_Data announcing \(total) bytes")
                }
                collected.reserveCapacity(Int(total))
            }
            var piece: ArraySlice<UInt8>?
            let accepted: Bool
            do {
                accepted = try receiver.accept(frame, sink: { piece = $0 })
            } catch {
                throw PTPIPError.malformed(error)
            }
            if accepted {
                guard let piece else { continue }
                if let sink {
                    try await sink(piece, Self.progress(of: receiver))
                } else {
                    guard collected.count + piece.count <= limit else {
                        throw PTPIPError.protocolViolation(
                            expected: "at most \(limit) bytes of data (larger needs a sink)",
                            received: "\(collected.count + piece.count) bytes")
                    }
                    collected.append(contentsOf: piece)
                }
                continue
            }
            switch frame {
            case let .packet(.operationResponse(response)):
                guard response.transactionID == transactionID else {
                    throw PTPIPError.protocolViolation(
                        expected: "the response to transaction \(transactionID) (\(code))",
                        received: "a response for transaction \(response.transactionID)")
                }
                if case .receiving = receiver.state {
                    throw PTPIPError.protocolViolation(
                        expected: "End_Data for transaction \(transactionID)", received: "Operation_Response")
                }
                return OperationResult(
                    code: response.code, parameters: response.parameters, transactionID: transactionID, data: collected)
            case .packet(.probeRequest):
                try await command.send(Packet.probeResponse.encoded(), timeout: timeout)
            case let .packet(other):
                throw PTPIPError.protocolViolation(
                    expected: "data or the response for transaction \(transactionID) (\(code))",
                    received: other.type.description)
            case .dataChunk:
                preconditionFailure("the data phase receiver takes every data chunk")
            }
        }
    }

    /// Reads at least one more byte of the command connection straight into `commandFramer`.
    ///
    /// The framer is actor state and cannot be lent across a wait, so this reads what has arrived
    /// (synchronously, into the framer) and only when nothing has, waits for readability and tries again.
    /// EOF is `.peerClosed`. The `during` text of errors is built only when one is thrown.
    private func receiveCommandBytes(for code: OperationCode, inDataPhase: Bool, timeout: Duration) async throws {
        while true {
            let count: Int?
            do {
                count = try commandFramer.read(from: command, maximumCount: configuration.receiveChunkSize)
                if count == nil { try await command.waitUntilReadable(timeout: timeout) }
            } catch {
                throw Self.withContext(error, during: Self.activity(code, inDataPhase: inDataPhase))
            }
            guard let count else { continue }
            if count == 0 { throw PTPIPError.peerClosed(during: Self.activity(code, inDataPhase: inDataPhase)) }
            return
        }
    }

    /// What the client was doing while it read the command connection, for error messages.
    private static func activity(_ code: OperationCode, inDataPhase: Bool) -> String {
        inDataPhase ? "the data phase of \(code)" : "waiting for the response to \(code)"
    }

    /// The progress a receiver has made.
    private static func progress(of receiver: DataPhaseReceiver) -> DataProgress {
        switch receiver.state {
        case .awaitingStart: return DataProgress(received: 0, total: 0)
        case let .receiving(total, received): return DataProgress(received: received, total: total)
        case let .complete(total): return DataProgress(received: total, total: total)
        }
    }

    /// Replaces the transport's generic "receive" in timeouts and resets with what the client was doing.
    static func withContext(_ error: any Error, during: String) -> any Error {
        switch error as? PTPIPError {
        case let .timedOut(address, _)?: return PTPIPError.timedOut(address: address, during: during)
        case .connectionReset?: return PTPIPError.connectionReset(during: during)
        default: return error
        }
    }
}
