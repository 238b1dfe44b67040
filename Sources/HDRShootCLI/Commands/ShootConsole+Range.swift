import Exposure
import Foundation
import ImageLuminance
import ShootKit
import Shooting

// MARK: - The range check during a shoot (`--check`)

extension ShootConsole {
    /// Measures what the journal has saved, emits the verdicts that became due (`rangeCheck` updates: the
    /// controller's while a run is in hand, else shown at once) and hands measurements and verdicts to the
    /// manifest.
    static func checkRange(
        _ watch: RangeWatch, journal: ShootJournal, manifest: ManifestKeeper,
        emit: @Sendable (ShootUpdate) -> Void
    ) async {
        for record in await watch.update(journal) {
            emit(.rangeCheck(RangeWatch.update(record)))
        }
        await manifest.noteRange(frames: await watch.frameRecords, checks: await watch.records)
    }

    /// `--check extend`: the frames that take a bracket to the verdict's additions, `spacing` apart on `scale`
    /// from the end that lacks, the addition itself last; only speeds the camera offers as they are (`offered`,
    /// nil: any speed of the scale), none longer than `longest` (nil: 30"). Shortest first.
    static func extensionSpeeds(
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

    /// `--check extend` after a complete run: when the bracket's verdict lacks an end and the shoot was extended
    /// fewer than `ShootRecipe.maximumExtensions` times, appends the missing frames as one more set through the journal and shoots them; returns
    /// that run's result, or nil when there was nothing to add.
    static func extendIfNeeded(
        _ shoot: Shoot, watch: RangeWatch, recorder: JournalRecorder, manifest: ManifestKeeper,
        view: ShootProgressView, output: any OutputStreams,
        shootFrom: (ShootPosition) async -> ShootResult
    ) async -> ShootResult? {
        let journal = await recorder.journal
        guard (journal.recipe?.extensions ?? 0) < ShootRecipe.maximumExtensions,
            let verdict = await watch.bracketVerdict(journal), !verdict.holds
        else { return nil }
        let scale = journal.recipe.flatMap { ShutterScale(rawValue: $0.scale) } ?? .third
        let spacing = journal.recipe.flatMap { try? EVAmount.spacing(parsing: $0.spacing) } ?? EVAmount(stops: 1)
        let speeds = extensionSpeeds(
            verdict, scale: scale, spacing: spacing, offered: shoot.offered, longest: shoot.longest)
        guard !speeds.isEmpty else {
            view.note("--check extend: nothing to add within the camera's speeds and --longest")
            return nil
        }
        let start: ShootPosition
        do {
            start = try await recorder.appendSet(speeds)
        } catch {
            view.note("--check extend: cannot record the extra frames (\(HDRShoot.message(for: error)))")
            return nil
        }
        await manifest.reopen()
        view.note(
            "--check extend: adding \(speeds.map(\.label).joined(separator: ", ")) as set \(start.set)")
        return await shootFrom(start)
    }
}
