import Dispatch
import Foundation
import PTPIPCodec
import Posix
import SonyProtocol

/// One operation the simulator handled, as written to `--op-log` (one JSON object per line).
package struct OperationRecord: Sendable, Equatable, Codable {
    /// 1, 2, ... in arrival order since the simulator started (all connections).
    package var index: Int
    /// Seconds since the simulator started when the request arrived.
    package var time: Double
    /// The operation code, e.g. `0x9209`.
    package var code: String
    /// The operation's name, e.g. `SDIO_GetAllExtDevicePropInfo`.
    package var name: String
    /// The request's parameters.
    package var parameters: [UInt32]
    /// The response code sent, e.g. `0x2001`; nil when the fault plan dropped or hung instead.
    package var response: String?
    /// Data-in bytes sent with the answer.
    package var dataInBytes: Int
    /// Data-out bytes received with the request.
    package var dataOutBytes: Int
}

/// Appends JSON lines to a file from a dedicated serial queue (`runInBackground(on:)`), so no cooperative thread
/// ever blocks on disk.
package final class JSONLineWriter: Sendable {
    private let handle: FileHandle
    private let queue = DispatchQueue(label: "hdrshoot.simulator.log")

    /// Opens `path` for appending, creating it when absent.
    package init(path: String) throws(SimulatorError) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw .unwritableLog(path: path, reason: "cannot create the file")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw .unwritableLog(path: path, reason: "cannot open the file for writing")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    /// Queues one record as a JSON line.
    package func append<Record: Encodable>(_ record: Record) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(record) else { return }
        line.append(0x0A)
        runInBackground(on: queue) { [handle, line] in handle.write(line) }
    }

    /// Waits until every queued line is written, then closes the file (call once).
    package func close() async {
        await runBlocking(on: queue) { [handle] in try? handle.close() }
    }
}

extension OperationCode {
    /// Sony's or PTP's name of the operation, or its hex code.
    var logName: String {
        if self == SimulatorOperation.getPartialLargeObject { return "SDIO_GetPartialLargeObject" }
        return inSonyVocabulary.knownName ?? "0x" + String(rawValue, radix: 16, uppercase: true)
    }
}
