import PTPIPCodec
import Synchronization
import Timing

/// How far a data-in phase has come.
package struct DataProgress: Sendable, Equatable {
    /// Payload bytes received so far.
    package var received: UInt64
    /// The total the Start Data packet announced.
    package var total: UInt64

    /// Creates a progress value.
    package init(received: UInt64, total: UInt64) {
        self.received = received
        self.total = total
    }
}

/// Receives a data-in phase chunk by chunk, as it arrives, so a 50 MB image never sits in memory twice.
///
/// Called in order, never concurrently, with non-empty chunks (at most `receiveChunkSize` bytes). Copy
/// what you keep: the slice shares the client's receive buffer. Throwing aborts the transaction (and,
/// since the connection is then out of step, closes it); the error is rethrown unchanged.
package typealias DataSink = @Sendable (_ chunk: ArraySlice<UInt8>, _ progress: DataProgress) async throws -> Void

/// What a completed transaction returned.
package struct OperationResult: Sendable, Equatable {
    /// The response code (OK for results that `execute` returns; other codes are thrown).
    package var code: ResponseCode
    /// The response's parameters (0 to 5).
    package var parameters: [UInt32]
    /// The transaction's id.
    package var transactionID: UInt32
    /// The data-in payload when `execute` collected it; empty when there was none or a sink took it.
    package var data: [UInt8]
}

extension PTPIPClient {
    // MARK: - Session

    /// Opens session `id` (not 0). OpenSession travels with transaction id 0 (ISO 15740 §9.3.1); the
    /// session's own transactions then count from 1.
    package func openSession(id: UInt32 = 1, timeout: Duration? = nil) async throws {
        precondition(id != 0, "session id 0 is reserved for operations outside a session")
        try await serialized { client in
            if case .inSession = client.state {
                throw PTPIPError.invalidState("a session is already open; close it before opening another")
            }
            _ = try await client.runTransaction(
                .openSession, parameters: [id], dataOut: nil, sink: nil, timeout: timeout)
            return ()
        }
    }

    /// Closes the open session; the connections stay up.
    package func closeSession(timeout: Duration? = nil) async throws {
        try await serialized { client in
            guard case .inSession = client.state else { throw PTPIPError.invalidState("no session is open") }
            _ = try await client.runTransaction(
                .closeSession, parameters: [], dataOut: nil, sink: nil, timeout: timeout)
            return ()
        }
    }

    // MARK: - Operations

    /// Runs an operation with no data phase, or a data-in phase collected into `data`
    /// (up to `maximumCollectedDataLength`).
    package func execute(
        _ code: OperationCode, parameters: [UInt32] = [], timeout: Duration? = nil
    ) async throws -> OperationResult {
        try await serialized { client in
            try await client.runTransaction(code, parameters: parameters, dataOut: nil, sink: nil, timeout: timeout)
        }
    }

    /// Runs an operation with a data-out phase: request, Start Data, Data and End Data go out in one write.
    package func execute(
        _ code: OperationCode, parameters: [UInt32] = [], sending data: [UInt8], timeout: Duration? = nil
    ) async throws -> OperationResult {
        try await serialized { client in
            try await client.runTransaction(code, parameters: parameters, dataOut: data, sink: nil, timeout: timeout)
        }
    }

    /// Runs an operation whose data-in phase is streamed to `sink` chunk by chunk, with progress.
    package func execute(
        _ code: OperationCode, parameters: [UInt32] = [], timeout: Duration? = nil,
        receivingDataWith sink: @escaping DataSink
    ) async throws -> OperationResult {
        try await serialized { client in
            try await client.runTransaction(code, parameters: parameters, dataOut: nil, sink: sink, timeout: timeout)
        }
    }

    // MARK: - The serial queue

    /// Runs `body` as the only transaction on the command connection, after every earlier caller.
    private func serialized<Result: Sendable>(
        _ body: (isolated PTPIPClient) async throws -> Result
    ) async throws -> Result {
        do {
            try await gate.enter()
        } catch {
            throw PTPIPError.cancelled(during: "waiting for the previous operation")
        }
        defer { gate.leave() }
        // Re-check after the await: the connection may have failed or been closed while we queued.
        switch state {
        case .connected, .inSession: break
        case let .failed(error): throw error
        case .disconnected: throw PTPIPError.invalidState("the client is disconnected")
        }
        return try await body(self)
    }

    /// One transaction; the caller holds the gate. Breaks the connection on anything but a clean answer.
    func runTransaction(
        _ code: OperationCode, parameters: [UInt32], dataOut: [UInt8]?, sink: DataSink?, timeout: Duration?
    ) async throws -> OperationResult {
        let transactionID: UInt32
        switch (code, state) {
        case (.openSession, _): transactionID = 0
        case (_, .inSession): transactionID = nextTransactionID
        // Outside a session (e.g. GetDeviceInfo before OpenSession) the transaction id is 0.
        default: transactionID = 0
        }
        let timeout = timeout ?? configuration.operationTimeout
        let result: OperationResult
        // Only measured when someone listens (the session log): the hot path stays as it was otherwise.
        let observer = configuration.observer
        let stopwatch = observer.map { _ in Stopwatch(clock: clock) }
        let streamed = StreamedLength()
        let sink = observer == nil ? sink : sink.map { sink in streamed.watching(sink) }
        do {
            let request = OperationRequest(
                dataPhase: dataOut == nil ? .noDataOrDataIn : .dataOut,
                code: code, transactionID: transactionID, parameters: parameters)
            let bytes =
                dataOut.map { Packet.encodeOperation(request, dataOut: $0) }
                ?? Packet.operationRequest(request).encoded()
            observer?.observeRequest(code, transactionID: transactionID)
            try await command.send(bytes, timeout: timeout)
            result = try await receiveResponse(
                to: code, transactionID: transactionID, sink: sink, timeout: timeout)
        } catch {
            breakConnection(because: error, during: code)
            if let observer, let stopwatch {
                observer.observe(
                    PTPIPOperationRecord(
                        code: code, parameters: parameters, transactionID: transactionID, response: nil,
                        responseParameters: [], direction: dataOut == nil ? (sink == nil ? .none : .dataIn) : .dataOut,
                        dataLength: UInt64(dataOut?.count ?? 0), data: [], duration: stopwatch.elapsed, error: error))
            }
            throw error
        }
        if let observer, let stopwatch {
            let direction: PTPIPOperationRecord.DataDirection
            let length: UInt64
            if let dataOut {
                (direction, length) = (.dataOut, UInt64(dataOut.count))
            } else if sink != nil {
                length = streamed.total
                direction = length > 0 ? .dataIn : .none
            } else {
                (direction, length) = (result.data.isEmpty ? .none : .dataIn, UInt64(result.data.count))
            }
            observer.observe(
                PTPIPOperationRecord(
                    code: code, parameters: parameters, transactionID: transactionID, response: result.code,
                    responseParameters: result.parameters, direction: direction, dataLength: length,
                    data: dataOut ?? (sink == nil ? result.data : []), duration: stopwatch.elapsed, error: nil))
        }
        advanceTransactionID(after: code, transactionID: transactionID, parameters: parameters)
        applySessionChange(code, response: result.code, requestParameters: parameters)
        guard result.code == .ok else { throw PTPIPError.response(code: result.code, operation: code) }
        return result
    }

    /// Moves the session bookkeeping on after a complete transaction (whatever its response code).
    private func advanceTransactionID(after code: OperationCode, transactionID: UInt32, parameters: [UInt32]) {
        switch code {
        case .openSession:
            nextTransactionID = 1
        case .closeSession:
            break
        default:
            if transactionID != 0 {
                // Wrap from 0xFFFFFFFE to 1: 0 belongs to OpenSession and 0xFFFFFFFF means "all" (§9.3.1).
                nextTransactionID = transactionID >= 0xFFFF_FFFE ? 1 : transactionID + 1
            }
        }
    }

    /// Marks the session state after a response to OpenSession or CloseSession.
    private func applySessionChange(_ code: OperationCode, response: ResponseCode, requestParameters: [UInt32]) {
        if code == .openSession, response == .ok, let id = requestParameters.first { state = .inSession(id: id) }
        if code == .closeSession, response == .ok, case .inSession = state { state = .connected }
    }

    /// Closes both connections after a broken transaction; later calls throw the reason.
    private func breakConnection(because error: any Error, during code: OperationCode) {
        switch state {
        case .failed, .disconnected:
            // Already closed: keep the first reason.
            return
        case .connected, .inSession:
            let reason =
                (error as? PTPIPError)
                ?? .cancelled(during: "the data phase of \(code): the receiver failed (\(error))")
            state = .failed(reason)
            command.close()
            event.close()
        }
    }
}

/// The total a streamed data-in phase announced, noted for the observer as chunks pass.
private final class StreamedLength: Sendable {
    private let value = Mutex<UInt64>(0)

    /// The announced total (0 when no data came).
    var total: UInt64 { value.withLock { $0 } }

    /// `sink`, noting each chunk's announced total on the way.
    func watching(_ sink: @escaping DataSink) -> DataSink {
        { [self] chunk, progress in
            value.withLock { $0 = progress.total }
            try await sink(chunk, progress)
        }
    }
}

extension PTPIPClient {
    /// Sets the id of the next in-session transaction (lets tests reach the wrap-around quickly).
    func setNextTransactionID(_ id: UInt32) {
        precondition(id != 0 && id != 0xFFFF_FFFF, "0 and 0xFFFFFFFF are not transaction ids inside a session")
        nextTransactionID = id
    }
}
