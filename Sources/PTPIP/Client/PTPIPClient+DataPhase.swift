extension PTPIPClient {
    /// Where a transaction's data-in phase stands.
    private enum DataPhase {
        /// No Start Data yet.
        case none
        /// Between Start Data and the end of End Data.
        case receiving(total: UInt64?, received: UInt64)
        /// End Data is complete; only the response may follow.
        case finished
    }

    /// Reads the command connection until the Operation Response of `transactionID`, reassembling a
    /// data-in phase on the way (collected into the result, or streamed to `sink`).
    ///
    /// Checks that every packet belongs to this transaction, that Start Data comes first and at most
    /// once, that no more and no fewer bytes arrive than it announced, and that the response comes last.
    func receiveResponse(
        to code: OperationCode, transactionID: UInt32, sink: DataSink?, timeout: Duration
    ) async throws -> OperationResult {
        var phase = DataPhase.none
        var collected: [UInt8] = []
        let expected = "transaction \(transactionID) (\(code))"
        while true {
            guard let frame = try commandFramer.nextFrame() else {
                let during = if case .receiving = phase { "the data phase of \(code)" } else { "waiting for the response to \(code)" }
                let chunk: [UInt8]
                do {
                    chunk = try await command.receive(upTo: configuration.receiveChunkSize, timeout: timeout)
                } catch {
                    throw Self.withContext(error, during: during)
                }
                if chunk.isEmpty { throw PTPIPError.peerClosed(during: during) }
                commandFramer.append(chunk)
                continue
            }
            switch frame {
            case let .packet(.startData(id, total)):
                guard id == transactionID, case .none = phase else {
                    throw PTPIPError.protocolViolation(expected: "data or response for \(expected)", received: "Start Data for transaction \(id)")
                }
                let known: UInt64? = total == UInt64.max ? nil : total
                if sink == nil, let known, known > UInt64(configuration.maximumCollectedDataLength) {
                    throw PTPIPError.protocolViolation(
                        expected: "at most \(configuration.maximumCollectedDataLength) bytes of data (larger needs a sink)",
                        received: "Start Data announcing \(known) bytes")
                }
                if sink == nil, let known { collected.reserveCapacity(Int(known)) }
                phase = .receiving(total: known, received: 0)

            case let .dataChunk(chunk):
                guard chunk.transactionID == transactionID, case let .receiving(total, received) = phase else {
                    throw PTPIPError.protocolViolation(
                        expected: "Start Data or response for \(expected)",
                        received: "\(chunk.type) for transaction \(chunk.transactionID)")
                }
                let now = received + UInt64(chunk.bytes.count)
                if let total, now > total {
                    throw PTPIPError.protocolViolation(expected: "\(total) bytes of data as announced", received: "at least \(now) bytes")
                }
                if !chunk.bytes.isEmpty {
                    if let sink {
                        try await sink(chunk.bytes, DataProgress(received: now, total: total))
                    } else {
                        if now > UInt64(configuration.maximumCollectedDataLength) {
                            throw PTPIPError.protocolViolation(
                                expected: "at most \(configuration.maximumCollectedDataLength) bytes of data (larger needs a sink)",
                                received: "\(now) bytes")
                        }
                        collected.append(contentsOf: chunk.bytes)
                    }
                }
                if chunk.type == .endData, chunk.isLastChunkOfPacket {
                    if let total, now != total {
                        throw PTPIPError.protocolViolation(expected: "\(total) bytes of data as announced", received: "\(now) bytes")
                    }
                    phase = .finished
                } else {
                    phase = .receiving(total: total, received: now)
                }

            case let .packet(.operationResponse(response)):
                guard response.transactionID == transactionID else {
                    throw PTPIPError.protocolViolation(
                        expected: "the response to \(expected)", received: "a response for transaction \(response.transactionID)")
                }
                if case .receiving = phase {
                    throw PTPIPError.protocolViolation(expected: "End Data for \(expected)", received: "Operation Response")
                }
                return OperationResult(
                    code: response.code, parameters: response.parameters, transactionID: transactionID, data: collected)

            case .packet(.probeRequest):
                try await command.send(Packet.probeResponse.encoded(), timeout: timeout)

            case let .packet(other):
                throw PTPIPError.protocolViolation(expected: "data or response for \(expected)", received: other.type.description)
            }
        }
    }
}

extension PTPIPClient {
    /// Replaces the transport's generic "receive" in timeouts and resets with what the client was doing.
    static func withContext(_ error: any Error, during: String) -> any Error {
        switch error as? PTPIPError {
        case let .timedOut(address, _)?: return PTPIPError.timedOut(address: address, during: during)
        case .connectionReset?: return PTPIPError.connectionReset(during: during)
        default: return error
        }
    }
}
