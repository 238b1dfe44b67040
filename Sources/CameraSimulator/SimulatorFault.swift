/// A scripted misbehaviour of the simulated camera, triggered deterministically by operation count or frame.
///
/// Each case has a `--fault` spelling (see `SimulatorFault.parse(_:)`); the same values are available
/// to tests through `SimulatorConfiguration.faults`.
package enum SimulatorFault: Sendable, Equatable, CustomStringConvertible {
    /// `busy:OPCODE:N`: answer DeviceBusy (0x2019) to the next N requests of that operation.
    case busy(operation: UInt16, count: Int)
    /// `busy-capture:N`: answer DeviceBusy to the next N shutter releases (S2 down through 0x9207).
    case busyCapture(count: Int)
    /// `drop-at-frame:N`: fire frame N, then close both connections instead of answering the release.
    case dropAtFrame(Int)
    /// `drop-at-op:N`: close both connections when the N-th operation request (counted from 1) arrives.
    case dropAtOperation(Int)
    /// `hang-at-op:N`: stop answering from the N-th operation request on, keeping the connections open.
    case hangAtOperation(Int)
    /// `hang-at-speed-set:N`: stop answering, keeping the connections open, at the first shutter speed set
    /// (0x9205 of 0xD20D) after frame N fired: a test kills the client while a speed change is surely in flight,
    /// however fast the host (the answer the count of operations cannot pin, since event timing varies it).
    case hangAtSpeedSet(afterFrame: Int)
    /// `refuse-connections:N`: answer Init Fail to the first N command-connection attempts.
    case refuseConnections(Int)
    /// `never-idle`: the image buffer never empties after a capture (0xD215 stays 0x8001).
    case neverIdle
    /// `refuse-pairing`: a body that needs pairing whose photographer did not allow this computer: every Init
    /// Command Request gets Init Fail reason 1 (Camera Control PTP 3 reference pp. 40-41; issue 33).
    case refusePairing
    /// `mode-at-frame:N:A`: the mode dial turns to `mode` just before frame N fires.
    case modeAtFrame(frame: Int, mode: SimulatedExposureMode)

    /// The `--fault` spelling of this fault.
    package var description: String {
        switch self {
        case let .busy(operation, count): return "busy:0x\(String(operation, radix: 16, uppercase: true)):\(count)"
        case let .busyCapture(count): return "busy-capture:\(count)"
        case let .dropAtFrame(frame): return "drop-at-frame:\(frame)"
        case let .dropAtOperation(operation): return "drop-at-op:\(operation)"
        case let .hangAtOperation(operation): return "hang-at-op:\(operation)"
        case let .hangAtSpeedSet(frame): return "hang-at-speed-set:\(frame)"
        case let .refuseConnections(count): return "refuse-connections:\(count)"
        case .neverIdle: return "never-idle"
        case .refusePairing: return "refuse-pairing"
        case let .modeAtFrame(frame, mode): return "mode-at-frame:\(frame):\(mode.letter)"
        }
    }

    /// Parses one `--fault` spec such as `busy:0x9205:2`, `drop-at-op:12` or `mode-at-frame:3:A`.
    package static func parse(_ spec: String) throws(SimulatorError) -> SimulatorFault {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func number(_ index: Int, minimum: Int = 1) throws(SimulatorError) -> Int {
            guard index < parts.count, let value = Int(parts[index]), value >= minimum else {
                throw .invalidFault(spec: spec, reason: "expected a whole number >= \(minimum) in field \(index + 1)")
            }
            return value
        }
        func arity(_ count: Int) throws(SimulatorError) {
            guard parts.count == count else {
                throw .invalidFault(spec: spec, reason: "expected \(count - 1) value(s) after '\(parts[0])'")
            }
        }
        switch parts[0] {
        case "busy":
            try arity(3)
            guard let code = parseCode(parts[1]) else {
                throw .invalidFault(spec: spec, reason: "'\(parts[1])' is not an operation code like 0x9205")
            }
            return .busy(operation: code, count: try number(2))
        case "busy-capture":
            try arity(2)
            return .busyCapture(count: try number(1))
        case "drop-at-frame":
            try arity(2)
            return .dropAtFrame(try number(1))
        case "drop-at-op":
            try arity(2)
            return .dropAtOperation(try number(1))
        case "hang-at-op":
            try arity(2)
            return .hangAtOperation(try number(1))
        case "hang-at-speed-set":
            try arity(2)
            return .hangAtSpeedSet(afterFrame: try number(1, minimum: 0))
        case "refuse-connections":
            try arity(2)
            return .refuseConnections(try number(1))
        case "never-idle":
            try arity(1)
            return .neverIdle
        case "refuse-pairing":
            try arity(1)
            return .refusePairing
        case "mode-at-frame":
            try arity(3)
            guard let mode = SimulatedExposureMode(letter: parts[2]) else {
                throw .invalidFault(spec: spec, reason: "mode must be one of M, A, S, P")
            }
            return .modeAtFrame(frame: try number(1), mode: mode)
        default:
            throw .invalidFault(
                spec: spec,
                reason: "unknown fault; use busy:OPCODE:N, busy-capture:N, drop-at-frame:N, drop-at-op:N, "
                    + "hang-at-op:N, hang-at-speed-set:N, refuse-connections:N, refuse-pairing, never-idle or mode-at-frame:N:M|A|S|P"
            )
        }
    }

    /// Accepts `0x9205`, `9205` (hex, as codes are written) and rejects anything wider than 16 bits.
    static func parseCode(_ text: String) -> UInt16? {
        let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        guard !digits.isEmpty, digits.count <= 4 else { return nil }
        return UInt16(digits, radix: 16)
    }
}

/// The positions of the exposure-mode dial the simulator knows (0x500E ExposureProgramMode values).
package enum SimulatedExposureMode: String, Sendable, Equatable, CaseIterable {
    /// Manual: 0x0001.
    case manual
    /// Aperture priority: 0x0003.
    case aperturePriority
    /// Shutter priority: 0x0004.
    case shutterPriority
    /// Program auto: 0x0002.
    case program

    /// The dial letter: M, A, S or P.
    package var letter: String {
        switch self {
        case .manual: return "M"
        case .aperturePriority: return "A"
        case .shutterPriority: return "S"
        case .program: return "P"
        }
    }

    /// Whether the user (or a client) sets the shutter speed in this mode.
    package var shutterIsSettable: Bool { self == .manual || self == .shutterPriority }

    /// Creates a mode from its dial letter (case-insensitive).
    package init?(letter: String) {
        guard let mode = Self.allCases.first(where: { $0.letter == letter.uppercased() }) else { return nil }
        self = mode
    }
}
