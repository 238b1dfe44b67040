import Dispatch
import Exposure
import Foundation
import ImageLuminance
import Posix
import Shooting

/// `--check`: what the range check does after each set and for the whole bracket.
package enum RangeCheckMode: String, Sendable, CaseIterable {
    /// No check: images are not read.
    case off
    /// Check and say the verdict (the default).
    case warn
    /// Check, and when an end of the bracket lacks, shoot the missing frames as one more set.
    case extend
}

/// The range check during a shoot: measures each saved frame's luma (its JPEG, or an ARW's preview), and once
/// every frame of the bracket is measured gives the whole bracket's verdict (each set's is kept as data).
///
/// It lives in the application layer on the runner's events (the runner never reads an image), so `Shooting`
/// stays free of image decoding; `--check extend` appends a set through the journal and runs the runner again
/// (RangeExtension.swift).
package actor RangeWatch {
    /// One verdict as the manifest and the JSON events carry it.
    package struct Record: Codable, Sendable, Equatable {
        /// `set` or `bracket`.
        package var scope: String
        /// The set (from 1) for a set's verdict.
        package var set: Int?
        /// Whether both ends hold.
        package var holds: Bool
        /// The verdict's line.
        package var line: String
        /// The highlight end.
        package var highlights: End
        /// The shadow end.
        package var shadows: End
    }

    /// One end of a verdict.
    package struct End: Codable, Sendable, Equatable {
        /// The frame looked at.
        package var speed: String
        /// The percentage of it clipped (highlights) or blocked (shadows).
        package var percent: Double
        /// The EV the end lacks (`2`, `1.3`), absent when it holds.
        package var missingEV: String?
        /// The speed to add, absent when the end holds or the scale ends there.
        package var add: String?
    }

    /// A frame's luma in the manifest: its 64-bin histogram and the fractions the check counts.
    package struct FrameRecord: Codable, Sendable, Equatable {
        /// 64 bins of 4 levels each, counts of 8x8-block means.
        package var histogram: [Int]
        /// Percentage of blocks above the highlight level.
        package var clippedPercent: Double
        /// Percentage of blocks below the shadow level.
        package var blockedPercent: Double
    }

    private let scale: ShutterScale
    private let readings: MeterReadings?
    private let thresholds: RangeThresholds
    package private(set) var frames: [ShootPosition: FrameLuminance] = [:]
    package private(set) var records: [Record] = []
    private var checkedSets: Set<Int> = []
    private var checkedBracket: Set<Int> = []
    private static let queue = DispatchQueue(label: "hdrshoot.luminance")

    /// A watch for a shoot planned on `scale` from `readings` (the rerun hint), with `thresholds`.
    package init(scale: ShutterScale, readings: MeterReadings?, thresholds: RangeThresholds = .magicLantern) {
        self.scale = scale
        self.readings = readings
        self.thresholds = thresholds
    }

    /// A watch for the shoot of `journal`: its recipe's scale and readings.
    package init(journal: ShootJournal) {
        self.init(scale: journal.recipe?.shutterScale ?? .third, readings: journal.recipe?.readings)
    }

    /// Measures every saved frame of `journal` not measured yet (frames of earlier runs on `resume`, and the one
    /// just saved), then returns the verdict that became due: the whole bracket's, once every frame is measured
    /// (again after `--check extend` appends a set). Each set's verdict is kept in `records` for the manifest
    /// as its frames are all measured, and not returned. A file that cannot be read leaves its frame unmeasured.
    package func update(_ journal: ShootJournal) async -> [Record] {
        for position in journal.plan.positions where frames[position] == nil {
            guard case .done(let images, _) = journal.frame(at: position).state,
                let speed = journal.plan.speed(at: position)
            else { continue }
            if let frame = await Self.measure(images, speed: speed, thresholds: thresholds) {
                frames[position] = frame
            }
        }
        var due: [Record] = []
        // The planned sets (not those `--check extend` appended); a plan of one set: its verdict is the bracket's,
        // said once. A set's verdict is data for the manifest, never said: the next sets are planned to cover
        // what it lacks, so only the whole bracket's verdict is one the photographer can act on.
        let planned = journal.plan.sets.count - (journal.recipe?.extensions ?? 0)
        let brackets = journal.plan.brackets(recipe: journal.recipe).prefix(planned)
        if brackets.count > 1 {
            for (index, positions) in brackets.enumerated() where !checkedSets.contains(index + 1) {
                let measured = positions.compactMap { frames[$0] }
                // Only the bracket's line suggests new readings (as `hdrshoot check` words it).
                guard measured.count == positions.count, let verdict = check(measured, suggestingReadings: false)
                else { continue }
                checkedSets.insert(index + 1)
                records.append(Self.record(verdict, scope: "set", set: index + 1))
            }
        }
        let all = journal.plan.positions
        if !checkedBracket.contains(all.count), let verdict = check(all.compactMap { frames[$0] }),
            all.allSatisfy({ frames[$0] != nil })
        {
            checkedBracket.insert(all.count)
            due.append(Self.record(verdict, scope: "bracket", set: nil))
        }
        records += due
        return due
    }

    /// The whole bracket's verdict over the frames measured so far (nil when none is).
    package func bracketVerdict(_ journal: ShootJournal) -> RangeVerdict? {
        check(journal.plan.positions.compactMap { frames[$0] })
    }

    /// The manifest's luma of each measured frame.
    package var frameRecords: [ShootPosition: FrameRecord] { frames.mapValues(Self.record) }

    /// The manifest's record of one measured frame.
    package static func record(_ frame: FrameLuminance) -> FrameRecord {
        FrameRecord(
            histogram: frame.histogram, clippedPercent: percent(frame.clippedFraction),
            blockedPercent: percent(frame.blockedFraction))
    }

    /// The record of the frame saved as `paths` measured as a shoot's watch measures it (the same file, decoder
    /// and thresholds, so the same figures as the manifest's): what the phone remote shows under the frame.
    package static func record(paths: [String], thresholds: RangeThresholds = .magicLantern) async -> FrameRecord? {
        // The record holds no speed: any will do.
        await measure(paths: paths, speed: ShutterSpeed(numerator: 1, denominator: 1), thresholds: thresholds)
            .map(record)
    }

    private func check(_ measured: [FrameLuminance], suggestingReadings: Bool = true) -> RangeVerdict? {
        RangeCheck.check(
            measured, scale: scale, thresholds: thresholds, readings: suggestingReadings ? readings : nil)
    }

    /// The luma of the first readable file of a frame (the JPEG before the ARW, as a body sends them), off the
    /// cooperative pool.
    package static func measure(
        _ images: [SavedImage], speed: ShutterSpeed, thresholds: RangeThresholds
    ) async -> FrameLuminance? {
        await measure(paths: images.map(\.path), speed: speed, thresholds: thresholds)
    }

    /// The luma of the first readable file of `paths`, as `measure` reads a frame's files.
    package static func measure(
        paths: [String], speed: ShutterSpeed, thresholds: RangeThresholds
    ) async -> FrameLuminance? {
        await runBlocking(on: queue) {
            for path in paths {
                guard let bytes = try? FileSystem.readAll(path), let image = try? LumaReader.read(bytes) else {
                    continue
                }
                return FrameLuminance(speed: speed, image: image, thresholds: thresholds)
            }
            return nil
        }
    }

    package static func record(_ verdict: RangeVerdict, scope: String, set: Int?) -> Record {
        func end(_ finding: RangeFinding) -> End {
            End(
                speed: finding.speed.label, percent: percent(finding.fraction), missingEV: finding.missing?.label,
                add: finding.addition?.label)
        }
        return Record(
            scope: scope, set: set, holds: verdict.holds, line: verdict.line, highlights: end(verdict.highlights),
            shadows: end(verdict.shadows))
    }

    /// A fraction as a percentage to 4 decimals (0.0002 is 0.02).
    package static func percent(_ fraction: Double) -> Double { (fraction * 1_000_000).rounded() / 10_000 }

    /// The line a person reads: `set 2 range: …` or `bracket range: …`.
    package static func text(_ check: ShootUpdate.RangeCheck) -> String {
        (check.set.map { "set \($0) " } ?? "bracket ") + "range: " + check.line
    }

    /// The update of a verdict.
    package static func update(_ record: Record) -> ShootUpdate.RangeCheck {
        func end(_ end: End) -> ShootUpdate.RangeEnd {
            ShootUpdate.RangeEnd(speed: end.speed, percent: end.percent, missingEV: end.missingEV, add: end.add)
        }
        return ShootUpdate.RangeCheck(
            scope: record.scope, set: record.set, holds: record.holds, line: record.line,
            highlights: end(record.highlights), shadows: end(record.shadows))
    }
}
