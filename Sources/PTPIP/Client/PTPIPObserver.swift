import PTPIPCodec

/// Watches what a `PTPIPClient` does, for a session log or a trace; injected through `Configuration.observer`.
///
/// PTPIP knows nothing of where the record goes: a front end conforms a log writer of its own. Calls come from
/// the client's actor (operations) and its event reader (events) as things happen, so a conformer must return
/// at once (copy what it keeps and write it elsewhere).
package protocol PTPIPObserver: Sendable {
    /// One transaction ended: answered (whatever the response code) or broken.
    func observe(_ record: PTPIPOperationRecord)
    /// One event arrived on the event connection (CIPA DC-005 §2.3.11).
    func observe(_ event: PTPEvent)
    /// A connection attempt to `address` ended after `duration`: `error` is nil when both handshakes passed.
    func observeConnect(address: String, duration: Duration, error: (any Error)?)
    /// A request is about to go out; `observe(_:)` follows when its transaction ends (so a watcher knows
    /// whether one is under way).
    func observeRequest(_ code: OperationCode, transactionID: UInt32)
}

extension PTPIPObserver {
    /// Most watchers only want whole transactions.
    package func observeRequest(_ code: OperationCode, transactionID: UInt32) {}
}

/// What one transaction did on the wire: the operation, the answer, the data phase and the time it took.
package struct PTPIPOperationRecord: Sendable {
    /// The direction of a data phase.
    package enum DataDirection: String, Sendable {
        /// No data phase.
        case none
        /// Host to camera.
        case dataOut = "out"
        /// Camera to host.
        case dataIn = "in"
    }

    /// The operation.
    package var code: OperationCode
    /// The request's parameters.
    package var parameters: [UInt32]
    /// The transaction id it travelled with.
    package var transactionID: UInt32
    /// The response code, nil when the transaction broke before one came.
    package var response: ResponseCode?
    /// The response's parameters.
    package var responseParameters: [UInt32]
    /// Which way data went.
    package var direction: DataDirection
    /// Bytes in the data phase (what the Start Data announced for a streamed data-in phase).
    package var dataLength: UInt64
    /// The data-in payload when it was collected into memory (never a streamed one), else empty; data-out bytes.
    package var data: [UInt8]
    /// From the request going out to the response (or the failure).
    package var duration: Duration
    /// Why the transaction broke (nil when it was answered).
    package var error: (any Error)?
}
