import Exposure
import Foundation
import ImageLuminance
import Shooting

// MARK: - The range check during a shoot (`--check`)

/// `--check extend`: the frames that take a bracket to the verdict's additions.
package enum RangeExtension {
    /// The frames that take a bracket to the verdict's additions, `spacing` apart on `scale` from the end that
    /// lacks, the addition itself last; only speeds the camera offers as they are (`offered`, nil: any speed of
    /// the scale), none longer than `longest` (nil: 30"). Shortest first.
    package static func speeds(
        _ verdict: RangeVerdict, scale: ShutterScale, spacing: EVAmount, offered: OfferedSpeeds<ShutterSpeed>?,
        longest: ShutterSpeed?
    ) -> [ShutterSpeed] {
        let speeds = scale.allSpeeds
        let step = max(1, (spacing.sixths * scale.stepsPerEV + 5) / 6)
        var result: [ShutterSpeed] = []
        for finding in [verdict.highlights, verdict.shadows] {
            guard !finding.holds, let addition = finding.addition,
                let from = speeds.firstIndex(where: { $0.nominalThirds == finding.speed.nominalThirds }),
                let to = speeds.firstIndex(of: addition)
            else { continue }
            let direction = to < from ? -1 : 1
            var index = from + direction * step
            while (direction < 0 && index > to) || (direction > 0 && index < to) {
                result.append(speeds[index])
                index += direction * step
            }
            result.append(addition)
        }
        let limit = longest ?? ShutterSpeed(numerator: 30, denominator: 1)
        return Array(
            Set(
                result.filter { speed in
                    speed <= limit && (offered.map { $0.choice(for: speed, substituting: false) != nil } ?? true)
                })
        ).sorted()
    }
}

extension ShootController {
    /// Measures what the journal has saved, publishes the verdicts that became due (`rangeCheck` updates) and
    /// hands measurements and verdicts to the manifest.
    func checkRange(_ watch: RangeWatch, journal: ShootJournal, manifest: any ShootManifestKeeping) async {
        for record in await watch.update(journal) {
            publish(.rangeCheck(RangeWatch.update(record)))
        }
        await manifest.noteRange(frames: await watch.frameRecords, checks: await watch.records)
    }

    /// `--check extend` after a complete run: when the bracket's verdict lacks an end and the shoot was extended
    /// fewer than `ShootRecipe.maximumExtensions` times, appends the missing frames as one more set through the
    /// journal; returns where the added set starts, or nil when there is nothing to add.
    func extensionStart(
        _ shoot: BracketShoot, watch: RangeWatch, recorder: JournalRecorder, manifest: any ShootManifestKeeping
    ) async -> ShootPosition? {
        let journal = await recorder.journal
        guard (journal.recipe?.extensions ?? 0) < ShootRecipe.maximumExtensions,
            let verdict = await watch.bracketVerdict(journal), !verdict.holds
        else { return nil }
        let scale = journal.recipe.flatMap { ShutterScale(rawValue: $0.scale) } ?? .third
        let spacing = journal.recipe.flatMap { try? EVAmount.spacing(parsing: $0.spacing) } ?? EVAmount(stops: 1)
        let speeds = RangeExtension.speeds(
            verdict, scale: scale, spacing: spacing, offered: shoot.offered, longest: shoot.longest)
        guard !speeds.isEmpty else {
            note("--check extend: nothing to add within the camera's speeds and --longest")
            return nil
        }
        let start: ShootPosition
        do {
            start = try await recorder.appendSet(speeds)
        } catch {
            note("--check extend: cannot record the extra frames (\(messages.message(for: error)))")
            return nil
        }
        await manifest.reopen()
        note("--check extend: adding \(speeds.map(\.label).joined(separator: ", ")) as set \(start.set)")
        return start
    }
}
