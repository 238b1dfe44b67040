import Shooting

/// How long a running shoot still needs at the tripod: the exposures left (plus Long Exposure NR where it is
/// known) and, per frame left, the overhead measured so far (speed change, release, confirmation). Downloads run
/// behind the shutter and are not in it (the "all frames shot" line estimates them).
///
/// Pure and driven by the caller's clock (seconds since any origin), so tests run it in virtual time.
///
/// - The overhead per frame starts at the plan's figure and becomes the average of the frames measured in this
///   run: the active time of a frame's cycle (from the previous frame's save to its own) minus its exposure.
/// - Time only counts while shooting is active: while a hold (keyboard, network) parks the shoot, and while
///   the camera is being reconnected, the clock stands still, so pauses neither shorten nor inflate the estimate.
///   A hold that comes while a frame is in flight starts once that frame is saved (the runner parks between
///   frames).
/// - A frame in flight never makes the estimate grow: its exposure counts down once the shutter opens, and only
///   what it spends beyond its expected overhead is absorbed (never added).
/// - A dropped connection loses the frame in flight (it is shot again after the reconnect): its exposure and
///   overhead count in full again, and its broken cycle is not measured.
package struct TimeLeftEstimator: Sendable {
    /// What Long Exposure NR adds after an exposure: the hook for when the camera's setting is known.
    package enum NoiseReduction: Sendable, Hashable {
        /// Off, or not known: nothing is added.
        case none
        /// A dark frame as long as the exposure follows every exposure of at least `threshold` seconds (Sony
        /// bodies apply it from 1 s when the setting is on).
        case darkFrame(threshold: Double)

        /// The seconds added after an exposure of `seconds`.
        func extraSeconds(afterExposure seconds: Double) -> Double {
            switch self {
            case .none: 0
            case .darkFrame(let threshold): seconds >= threshold ? seconds : 0
            }
        }
    }

    /// Seconds each frame keeps the camera busy on top of its overhead: exposure plus NR, in plan order.
    private let busy: [Double]
    /// `busy[i...]` summed, for each `i` (and 0 at the end), so an estimate costs no loop.
    private let busyFrom: [Double]
    private let initialOverhead: Double

    /// Active time (shooting, not parked, not reconnecting) up to `activeSince`.
    private var activeBefore = 0.0
    /// When the clock last started running, or nil while it stands still.
    private var activeSince: Double?
    /// Frames measured in this run and their overhead in total.
    private var measuredFrames = 0
    private var measuredOverhead = 0.0
    /// The frame in flight or next to shoot (an index in plan order).
    private var next = 0
    private var inFlight = false
    /// Active time at which the current frame's cycle began (the previous save, the start, or the reconnect).
    private var cycleStart = 0.0
    /// Active time at which the current frame's shutter opened (its `capturing` phase), if it did.
    private var exposureStart: Double?
    /// Whether the current frame's exposure is over (the camera is finishing it).
    private var exposureDone = false
    /// The kinds of holds in force.
    private var holds: Set<PauseReason.Kind> = []

    /// An estimator for frames whose exposures are `exposures` seconds (plan order), with `overhead` seconds
    /// per frame until frames are measured, and what NR is known to add.
    package init(exposures: [Double], overhead: Double, noiseReduction: NoiseReduction = .none) {
        busy = exposures.map { $0 + noiseReduction.extraSeconds(afterExposure: $0) }
        var sums = [Double](repeating: 0, count: exposures.count + 1)
        for index in busy.indices.reversed() { sums[index] = sums[index + 1] + busy[index] }
        busyFrom = sums
        initialOverhead = max(0, overhead)
    }

    // MARK: - Events

    /// The run starts at frame `index` (frames before it are saved) at time `time`.
    package mutating func start(at index: Int, time: Double) {
        next = index
        inFlight = false
        exposureStart = nil
        exposureDone = false
        activeSince = nil
        updateClock(at: time)
        cycleStart = active(at: time)
    }

    /// Frame `index` reached `phase` at `time`.
    package mutating func frame(_ index: Int, reached phase: FramePhase, at time: Double) {
        let now = active(at: time)
        if phase == .settingSpeed || phase == .capturing, index != next || !inFlight {
            // A new frame (or the lost one shot again): its exposure has not started.
            next = index
            inFlight = true
            exposureStart = nil
            exposureDone = false
        }
        switch phase {
        case .settingSpeed, .downloading:
            // Downloads run behind the shutter: they end no frame's cycle and start none.
            break
        case .capturing:
            if exposureStart == nil { exposureStart = now }
        case .inCamera, .saved:
            // The frame's cycle ends when it is in the camera (or saved, without downloads); the `.saved` of a
            // frame fired earlier is a download finishing and changes nothing.
            guard inFlight, index == next else { break }
            if busy.indices.contains(index) {
                measuredOverhead += max(0, now - cycleStart - busy[index])
                measuredFrames += 1
            }
            next = index + 1
            inFlight = false
            exposureStart = nil
            exposureDone = false
            cycleStart = now
        }
        updateClock(at: time)
    }

    /// A hold of `kind` came in at `time`; a dropped connection (`.connection`) loses the frame in flight.
    package mutating func hold(_ kind: PauseReason.Kind, at time: Double) {
        holds.insert(kind)
        if kind == .connection {
            cycleStart = active(at: time)
            inFlight = false
            exposureStart = nil
            exposureDone = false
        }
        updateClock(at: time)
    }

    /// The hold of `kind` was released at `time`; after a reconnect the frame's cycle starts afresh.
    package mutating func release(_ kind: PauseReason.Kind, at time: Double) {
        holds.remove(kind)
        if kind == .connection { cycleStart = active(at: time) }
        updateClock(at: time)
    }

    // MARK: - Estimate

    /// The overhead per frame used now: measured, or the plan's until a frame was measured.
    package var overheadPerFrame: Double {
        measuredFrames == 0 ? initialOverhead : measuredOverhead / Double(measuredFrames)
    }

    /// Seconds the shoot still needs at `time`.
    package func secondsLeft(at time: Double) -> Double {
        guard busy.indices.contains(next) else { return 0 }
        let now = active(at: time)
        let overhead = overheadPerFrame
        let current = busy[next]
        var exposed = 0.0
        if inFlight, let opened = exposureStart { exposed = exposureDone ? current : min(current, now - opened) }
        let overheadSpent = max(0, now - cycleStart - exposed)
        let later = busyFrom[next + 1] + Double(busy.count - next - 1) * overhead
        return (current - exposed) + max(0, overhead - overheadSpent) + later
    }

    /// Whether time counts now: no hold parks the shoot, or a frame in flight is still finishing.
    package var isClockRunning: Bool { activeSince != nil }

    // MARK: - Clock

    private func active(at time: Double) -> Double {
        activeBefore + (activeSince.map { max(0, time - $0) } ?? 0)
    }

    /// Starts or stops the clock: it runs unless a hold is in force with no frame left to finish (the
    /// connection hold stops it at once: the frame in flight is lost).
    private mutating func updateClock(at time: Double) {
        let running = holds.isEmpty || (inFlight && !holds.contains(.connection))
        if running, activeSince == nil {
            activeSince = time
        } else if !running, let since = activeSince {
            activeBefore += max(0, time - since)
            activeSince = nil
        }
    }
}
