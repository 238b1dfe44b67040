/// The remaining budget of each configured fault, consumed as operations, frames and connections occur.
struct FaultState: Sendable {
    /// What an operation-count fault does to the connection.
    enum ConnectionFault: Sendable, Equatable {
        case drop
        case hang
    }

    private var busyByOperation: [UInt16: Int] = [:]
    private var busyCaptures = 0
    private var dropFrames: Set<Int> = []
    private var dropOperations: Set<Int> = []
    private var hangOperations: Set<Int> = []
    private var hangSpeedSetsAfterFrame: Set<Int> = []
    private var refusals = 0
    private var modeChanges: [Int: SimulatedExposureMode] = [:]
    /// Whether the buffer never empties after a capture.
    let neverIdle: Bool
    /// Whether every connection is refused as not approved for pairing (Init Fail reason 1).
    let refusesPairing: Bool

    init(_ faults: [SimulatorFault]) {
        var neverIdle = false
        var refusesPairing = false
        for fault in faults {
            switch fault {
            case let .busy(operation, count): busyByOperation[operation, default: 0] += count
            case let .busyCapture(count): busyCaptures += count
            case let .dropAtFrame(frame): dropFrames.insert(frame)
            case let .dropAtOperation(operation): dropOperations.insert(operation)
            case let .hangAtOperation(operation): hangOperations.insert(operation)
            case let .hangAtSpeedSet(frame): hangSpeedSetsAfterFrame.insert(frame)
            case let .refuseConnections(count): refusals += count
            case .neverIdle: neverIdle = true
            case .refusePairing: refusesPairing = true
            case let .modeAtFrame(frame, mode): modeChanges[frame] = mode
            }
        }
        self.neverIdle = neverIdle
        self.refusesPairing = refusesPairing
    }

    /// Consumes one DeviceBusy answer for `operation`, if any are left.
    mutating func takeBusy(operation: UInt16) -> Bool {
        guard let left = busyByOperation[operation], left > 0 else { return false }
        busyByOperation[operation] = left - 1
        return true
    }

    /// Consumes one DeviceBusy answer for a shutter release, if any are left.
    mutating func takeBusyCapture() -> Bool {
        guard busyCaptures > 0 else { return false }
        busyCaptures -= 1
        return true
    }

    /// Consumes one refused connection attempt, if any are left.
    mutating func takeRefusal() -> Bool {
        guard refusals > 0 else { return false }
        refusals -= 1
        return true
    }

    /// What happens at the `index`-th operation request (each fires once).
    mutating func connectionFault(atOperation index: Int) -> ConnectionFault? {
        if dropOperations.remove(index) != nil { return .drop }
        if hangOperations.remove(index) != nil { return .hang }
        return nil
    }

    /// Whether a shutter speed set, with `fired` frames fired so far, is the one to stop answering at (once).
    mutating func hangsAtSpeedSet(fired: Int) -> Bool {
        guard let frame = hangSpeedSetsAfterFrame.filter({ $0 <= fired }).min() else { return false }
        hangSpeedSetsAfterFrame.remove(frame)
        return true
    }

    /// Whether the link drops right after `frame` fires (once).
    mutating func dropsAtFrame(_ frame: Int) -> Bool { dropFrames.remove(frame) != nil }

    /// The mode the dial turns to just before `frame`, if scripted (once).
    mutating func takeModeChange(beforeFrame frame: Int) -> SimulatedExposureMode? {
        modeChanges.removeValue(forKey: frame)
    }
}
