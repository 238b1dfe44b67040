import JSON
import Shooting

extension LearnedLimit {
    /// What the photographer is told when this limit is learned during a shoot; nil for a limit that is only
    /// recorded (a buffer size recalled from an earlier shoot, the evidence latency: nothing to act on) or told
    /// elsewhere (the shutter range, a connect step).
    package var sentence: String? {
        switch self {
        case let .bufferCapacity(captures, remembered: false):
            "the camera took no release while \(captures) image\(captures == 1 ? "" : "s") waited in it: it holds "
                + "\(captures); from now on only the room each release needs is downloaded"
        case .speedChangeIgnoredWhileImagesWait:
            "the camera did not take a new shutter speed while images waited in it; they were downloaded first, "
                + "and from now on before each speed change"
        case .bufferCapacity(_, remembered: true), .shutterRange, .evidenceLatency:
            nil
        }
    }

    /// The fields of the session log's `learned` record (after `kind`): `limit` names it, the rest are its values;
    /// `source` says whether this session learned it or an earlier shoot of the body did.
    package var logFields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("limit", .string(name))]
        switch self {
        case let .bufferCapacity(captures, remembered):
            fields += [("captures", .int(captures)), ("source", .string(remembered ? "remembered" : "shoot"))]
        case .speedChangeIgnoredWhileImagesWait:
            fields += [("source", .string("shoot"))]
        case let .shutterRange(slowest, fastest, remembered):
            fields += [
                ("slowest", .string(slowest.label)), ("fastest", .string(fastest.label)),
                ("source", .string(remembered ? "remembered" : "probed"))
            ]
        case .evidenceLatency(let latency):
            let parts = latency.components
            let milliseconds = Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
            fields += [("ms", .number((milliseconds * 10).rounded() / 10)), ("source", .string("shoot"))]
        }
        return fields
    }
}

extension SessionLogging {
    /// Records a learned limit as a typed `learned` line of the current log, if any.
    package static func record(learned limit: LearnedLimit) {
        current?.record("learned", limit.logFields)
    }
}
