import JSON
import PTPIP
import PTPIPCodec

/// Turns what a `PTPIPClient` does into session-log lines: `op`, `event` and `connect`.
///
/// Data phases that describe the body are kept as hex (GetDeviceInfo 0x1001, GetObjectInfo 0x1008,
/// SDIO_GetExtDeviceInfo 0x9202, every SDIO_GetAllExtDevicePropInfo 0x9209 dump: Sony "Camera Control PTP"
/// reference, /work/shared/reference/ pp. 20-31) and small data-out phases (the values set); image bytes never.
package struct SessionLogObserver: PTPIPObserver {
    /// Where the lines go.
    package let writer: SessionLogWriter

    /// Operations whose data-in phase is logged as hex.
    package static let describingOperations: Set<UInt16> = [0x1001, 0x1008, 0x9202, 0x9209]
    /// The largest data-out phase logged as hex (settings are a few bytes; nothing an image is).
    package static let largestLoggedDataOut = 256

    /// An observer writing to `writer`.
    package init(writer: SessionLogWriter) {
        self.writer = writer
    }

    /// Logs one transaction.
    package func observe(_ record: PTPIPOperationRecord) {
        var fields: [(String, JSONValue)] = [
            ("code", .string(JSONValue.hexCode(record.code.rawValue))), ("name", .string(record.code.name)),
            ("tid", .int(record.transactionID)), ("params", .array(record.parameters.map { .int($0) }))
        ]
        if let response = record.response {
            fields.append(("response", .string(JSONValue.hexCode(response.rawValue))))
            fields.append(("responseName", .string(response.name)))
            if !record.responseParameters.isEmpty {
                fields.append(("responseParams", .array(record.responseParameters.map { .int($0) })))
            }
        }
        fields.append(("data", .string(record.direction.rawValue)))
        fields.append(("length", .int(record.dataLength)))
        fields.append(("ms", .number(Self.milliseconds(record.duration))))
        let keepsHex =
            switch record.direction {
            case .dataIn: Self.describingOperations.contains(record.code.rawValue)
            case .dataOut: record.data.count <= Self.largestLoggedDataOut
            case .none: false
            }
        if keepsHex, !record.data.isEmpty { fields.append(("hex", .string(JSONValue.hex(record.data)))) }
        if let error = record.error { fields.append(("error", .string("\(error)"))) }
        writer.record("op", fields)
    }

    /// Logs one event.
    package func observe(_ event: PTPEvent) {
        writer.record(
            "event",
            [
                ("code", .string(JSONValue.hexCode(event.code.rawValue))), ("name", .string(event.code.name)),
                ("params", .array(event.parameters.map { .int($0) }))
            ])
    }

    /// Logs one connection attempt.
    package func observeConnect(address: String, duration: Duration, error: (any Error)?) {
        var fields: [(String, JSONValue)] = [
            ("address", .string(address)), ("ms", .number(Self.milliseconds(duration))),
            ("outcome", .string(error == nil ? "connected" : "failed"))
        ]
        if let error { fields.append(("error", .string("\(error)"))) }
        writer.record("connect", fields)
    }

    /// Milliseconds with microsecond precision.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1e6 + Double(attoseconds / 1_000_000_000_000)).rounded() / 1000
    }
}
