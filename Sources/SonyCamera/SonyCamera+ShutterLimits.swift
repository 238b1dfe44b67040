import Exposure
import Foundation
import Posix
import SonyProtocol

/// The fastest and slowest timed speeds a body whose 0xD20D is a range that names none was seen to reach: each its
/// real end (the body stopped there), or as far as a plan needed it to go (it may go further).
package struct ShutterLimits: Sendable, Equatable {
    /// The shortest exposure the body went to.
    package var fastest: ShutterSpeed
    /// The longest timed exposure the body went to (BULB aside).
    package var slowest: ShutterSpeed
    /// Whether `fastest` is the body's end (it stopped there, or it is the end of Sony's series), not only as fast
    /// as a plan needed.
    package var fastestIsEnd: Bool
    /// Whether `slowest` is the body's end (or 30", the end of Sony's timed series), not only as slow as a plan
    /// needed.
    package var slowestIsEnd: Bool

    /// Limits from their two ends.
    package init(fastest: ShutterSpeed, slowest: ShutterSpeed, fastestIsEnd: Bool = true, slowestIsEnd: Bool = true) {
        self.fastest = fastest
        self.slowest = slowest
        self.fastestIsEnd = fastestIsEnd
        self.slowestIsEnd = slowestIsEnd
    }

    /// Whether these limits answer for a plan whose speeds span `needs` (fastest ... slowest): each end is the
    /// body's own, or reaches as far as the plan needs. Without a plan, only the body's real ends answer.
    package func answer(for needs: ClosedRange<ShutterSpeed>?) -> Bool {
        guard let needs else { return fastestIsEnd && slowestIsEnd }
        return (fastestIsEnd || fastest <= needs.lowerBound) && (slowestIsEnd || slowest >= needs.upperBound)
    }

    /// `30" to 1/4000`.
    package var label: String { "\(slowest.label) to \(fastest.label)" }
}

/// How a body's shutter limits became known.
package enum ShutterLimitsFinding: Sendable, Equatable {
    /// Stepped now toward the plan's fastest and slowest speeds (without a plan, Sony's widest series) and read
    /// back where the body stopped.
    case probed(ShutterLimits)
    /// Read from the record an earlier shoot of this body (same serial) wrote.
    case remembered(ShutterLimits)

    /// The limits, however found.
    package var limits: ShutterLimits {
        switch self {
        case let .probed(limits), let .remembered(limits): limits
        }
    }
}

extension SonyCamera {
    // MARK: - The real ends of an unlisted shutter range (issue 32, point 4)

    /// For a body whose shutter speed 0xD20D is a range naming no speeds and no list (the ILCE-6000's display-only
    /// 0..0xFFFFFFFF), finds the speeds it really reaches before anything is planned on them: from the record of an
    /// earlier shoot of the same body (by serial) when it answers for `needs`, else by stepping toward the plan's
    /// fastest and slowest speeds (`needs`, fastest ... slowest; without a plan, the ends of Sony's widest series,
    /// 30" and 1/8000) and reading back where it stopped, the way the stepping reads back every step. A body that
    /// stops short of a speed has its end there; one that reaches it may go further (only what the plan needs is
    /// stepped). The shutter is put back where it was. From then on `availableShutterSpeeds()` offers only those
    /// speeds, so a plan beyond them is substituted in the summary before the question. Nil for a body that lists
    /// its speeds or is not in M or S (its mode stops the shoot anyway).
    package func learnShutterLimits(
        needing needs: ClosedRange<ShutterSpeed>? = nil
    ) async throws
        -> ShutterLimitsFinding?
    {
        try await refreshIfChanged()
        guard shutterRangeIsUnbounded, properties.exposureMode?.allowsShutterSpeedControl == true,
            let start = properties.shutterSpeed
        else { return nil }
        let recorded = readShutterLimitsRecord()
        if let remembered = recorded, remembered.answer(for: needs), let speed = start.speed,
            start.isBulb || (speed >= remembered.fastest && speed <= remembered.slowest)
        {
            shutterLimits = remembered
            return .remembered(remembered)
        }
        let series = Self.standardSeries()
        let timed = Array(series.dropFirst())
        let widestFast = series[series.count - 1]
        let widestSlow = series[1]
        // The plan's extremes as Sony values (within the series: beyond 30" is BULB, beyond 1/8000 nothing).
        func target(_ speed: ShutterSpeed?, or widest: SonyShutterValue) -> SonyShutterValue {
            guard let speed, let end = widest.speed else { return widest }
            let within = widest.isSameExposure(as: widestFast) ? max(speed, end) : min(speed, end)
            return SonyShutterValue.matching(within, among: timed) ?? widest
        }
        let fastTarget = target(needs?.lowerBound, or: widestFast)
        let fastest = try await stepToEnd(toward: fastTarget, in: series)
        var slowTarget = target(needs?.upperBound, or: widestSlow)
        // A body that stops short of the plan's fastest speed gets a plan moved that many notches slower (the
        // plan is made again on its range): its slowest speed is stepped to as much further.
        if let wanted = timed.firstIndex(where: { $0.isSameExposure(as: fastTarget) }),
            let stopped = timed.firstIndex(where: { $0.isSameExposure(as: fastest) }), stopped < wanted,
            let slow = timed.firstIndex(where: { $0.isSameExposure(as: slowTarget) })
        {
            slowTarget = timed[max(0, slow - (wanted - stopped))]
        }
        let slowest = try await stepToEnd(toward: slowTarget, in: series)
        guard let fast = fastest.speed, let slow = slowest.speed, fast < slow else {
            throw SonyCameraError.malformedData(
                what: "settings",
                reason: "stepping the shutter to its ends read back \(fastest.label) and \(slowest.label)")
        }
        var limits = ShutterLimits(
            fastest: fast, slowest: slow,
            fastestIsEnd: !fastest.isSameExposure(as: fastTarget) || fastTarget.isSameExposure(as: widestFast),
            slowestIsEnd: !slowest.isSameExposure(as: slowTarget) || slowTarget.isSameExposure(as: widestSlow))
        // What an earlier shoot saw beyond what this plan needed stays known.
        if let recorded {
            if !limits.fastestIsEnd, recorded.fastest < limits.fastest {
                (limits.fastest, limits.fastestIsEnd) = (recorded.fastest, recorded.fastestIsEnd)
            }
            if !limits.slowestIsEnd, recorded.slowest > limits.slowest {
                (limits.slowest, limits.slowestIsEnd) = (recorded.slowest, recorded.slowestIsEnd)
            }
        }
        shutterLimits = limits
        writeShutterLimitsRecord(limits)
        // Back to the photographer's speed (within what the body reaches), as a dial turned and turned back.
        if let back = SonyShutterValue.matching(start.speed ?? slow, among: rangedShutterValues() ?? []) {
            _ = try await stepToEnd(toward: back, in: rangedShutterValues() ?? series)
        }
        return .probed(limits)
    }

    /// Steps toward `target` in notches and reads back after each step; returns the value where the body stopped:
    /// `target`, or its end of the range when two steps in a row left the value where it was (one unapplied step
    /// may be a lost notch, two are the end).
    private func stepToEnd(
        toward target: SonyShutterValue, in series: [SonyShutterValue]
    ) async throws
        -> SonyShutterValue
    {
        guard var current = properties.shutterSpeed else {
            throw SonyCameraError.malformedData(
                what: "settings", reason: "the camera reports no shutter speed (0xD20D)")
        }
        var unmoved = 0
        var steps = 0
        while !current.isSameExposure(as: target), unmoved < 2, steps < 4 * configuration.shutterSetAttempts {
            guard let notches = try? SonyShutterStepping.notches(from: current, to: target, in: series),
                let parameter = try? SonyShutterStepping.controlParameter(notches: notches)
            else { break }
            let before = current
            try await run(
                .sdioControlDevice, [UInt32(SonyPropertyCode.shutterSpeed.rawValue)], sending: [parameter],
                during: "stepping the shutter speed \(notches) notch(es) to find its end (0x9207)")
            steps += 1
            // The read-back waits for the body's change event between reads (or polls a body that sends none).
            guard
                let moved = try await awaitShutter(
                    timeout: configuration.stepConfirmTimeout, until: { !$0.isSameExposure(as: before) })
            else {
                unmoved += 1
                continue
            }
            unmoved = 0
            current = moved
            if !current.isSameExposure(as: target) { current = try await settleShutter(from: current, target: target) }
        }
        return current
    }

    // MARK: - The body's record

    /// The file of this body's shutter limits, when records are kept.
    private var shutterLimitsRecordPath: String? { bodyRecordPath("shutter-limits") }

    /// The file `KIND-SERIAL` of this body's records (by serial number, else model), when records are kept.
    func bodyRecordPath(_ kind: String) -> String? {
        guard let directory = configuration.bodyRecordDirectory, let device = deviceInfo else { return nil }
        let key = (device.serialNumber.isEmpty ? device.model : device.serialNumber)
            .unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
        guard !key.isEmpty else { return nil }
        return directory.appendingPathComponent(kind + "-" + String(String.UnicodeScalarView(key))).path
    }

    /// `fastest=0x00010FA0` and `slowest=0x012C000A`: Sony's own u32 values (reference p. 158), one a line; then
    /// `reached=fastest` (or `slowest`, or both, comma-separated) for an end that is only as far as a plan needed.
    private func readShutterLimitsRecord() -> ShutterLimits? {
        guard let path = shutterLimitsRecordPath, let bytes = try? FileSystem.readAll(path) else { return nil }
        var values: [String: ShutterSpeed] = [:]
        var reached: Set<Substring> = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2, parts[0] == "reached" {
                reached = Set(parts[1].split(separator: ","))
                continue
            }
            guard parts.count == 2, parts[1].hasPrefix("0x"), let raw = UInt32(parts[1].dropFirst(2), radix: 16),
                let speed = SonyShutterValue(rawValue: raw).speed
            else { continue }
            values[String(parts[0])] = speed
        }
        guard let fastest = values["fastest"], let slowest = values["slowest"], fastest < slowest else { return nil }
        return ShutterLimits(
            fastest: fastest, slowest: slowest, fastestIsEnd: !reached.contains("fastest"),
            slowestIsEnd: !reached.contains("slowest"))
    }

    /// Keeps the limits for the next shoot of this body (best effort: without the record, the next shoot steps
    /// to the ends again). Written whole and durable (temporary file, fsync, rename, fsync of the folder).
    private func writeShutterLimitsRecord(_ limits: ShutterLimits) {
        guard let path = shutterLimitsRecordPath,
            let fastest = SonyShutterValue(limits.fastest), let slowest = SonyShutterValue(limits.slowest)
        else { return }
        func hex(_ value: SonyShutterValue) -> String {
            let digits = String(value.rawValue, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
        }
        var text = "fastest=\(hex(fastest))\nslowest=\(hex(slowest))\n"
        let reached = [limits.fastestIsEnd ? nil : "fastest", limits.slowestIsEnd ? nil : "slowest"].compactMap { $0 }
        if !reached.isEmpty { text += "reached=" + reached.joined(separator: ",") + "\n" }
        try? FileSystem.replace(path, with: Array(text.utf8), creatingFolder: true)
    }
}

extension SonyCamera {
    // MARK: - The buffer size a shoot learned (issue 32, point 5)

    /// The number of captures this body holds, as an earlier shoot of it learned (`buffer-SERIAL` in the body
    /// records); nil when none did or no records are kept.
    package func rememberedBufferCapacity() async -> Int? {
        guard let path = bodyRecordPath("buffer"), let bytes = try? FileSystem.readAll(path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("capacity="), let capacity = Int(text.dropFirst("capacity=".count)), capacity >= 1
        else { return nil }
        return capacity
    }

    /// Keeps the number of captures this body was found to hold for its next shoot (durable, best effort).
    package func rememberBufferCapacity(_ capacity: Int) async {
        guard capacity >= 1, let path = bodyRecordPath("buffer") else { return }
        try? FileSystem.replace(path, with: Array("capacity=\(capacity)\n".utf8), creatingFolder: true)
    }
}
