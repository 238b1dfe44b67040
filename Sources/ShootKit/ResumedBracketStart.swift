import Exposure
import Shooting

/// `resume`'s start of a bracket: what remains of the journal's plan checked against the camera; once agreed, the
/// journal (locked before it was read) follows the camera used, and the earlier runs' speeds come from the
/// manifest.
package struct ResumedBracketStart: ShootStart {
    /// The journal, read under its lock.
    package var journal: ShootJournal
    /// Its first frame not saved.
    package var resumePosition: ShootPosition
    /// `--restart-set`.
    package var restartingSet: Bool
    /// Whether `--camera` was given: the journal then follows the camera actually used.
    package var followsCamera: Bool
    /// Where the journal is saved.
    package var store: JournalStore

    /// A resume of `journal` from `resumePosition`.
    package init(
        journal: ShootJournal, resumePosition: ShootPosition, restartingSet: Bool, followsCamera: Bool,
        store: JournalStore
    ) {
        self.journal = journal
        self.resumePosition = resumePosition
        self.restartingSet = restartingSet
        self.followsCamera = followsCamera
        self.store = store
    }

    /// Where shooting starts: the first frame not saved, or its set's first frame with `--restart-set`.
    package var start: ShootPosition {
        restartingSet ? ShootPosition(set: resumePosition.set, frame: 1) : resumePosition
    }

    /// Checks the speeds of the frames that remain (bulb frames in S mode: one blocker naming them all, not "no
    /// longer offers").
    package func match(_ check: inout CameraCheck, messages: any ShootMessages) {
        let plan = journal.plan
        let remaining = plan.positions.filter { $0 >= start }
        let remainingPlan = BracketPlan(sets: [remaining.compactMap { plan.speed(at: $0) }])
        let bulbBlocker = ShootBlocker.bulbFrames(of: remainingPlan, settings: check.settings)
        if let bulbBlocker { check.blockers.append(bulbBlocker) }
        check.blockers = check.blockers(shooting: remainingPlan)
        for position in remaining {
            guard let speed = plan.speed(at: position), !(speed.isBulb && bulbBlocker != nil) else { continue }
            if CameraShutterSpeed.resolve(speed, in: check.settings) == nil {
                check.blockers.append(.speedNotOffered(speed: speed.label, position: "\(position)"))
                break
            }
        }
    }

    /// The summary the controller proposes: what is saved, where it starts, what may be on the card twice.
    package func proposal(of matched: Void, check: CameraCheck) -> ShootUpdate.Summary? {
        var summary = ShootUpdate.Summary(
            exposures: journal.plan.totalExposures, blockers: check.blockers, camera: check.cameraUpdate,
            output: journal.outputDirectory)
        summary.shoot = journal.id
        summary.captured = journal.savedCount
        summary.start = ShootUpdate.Position(start)
        summary.possiblyDuplicated = journal.interruptedFrames.map(ShootUpdate.Position.init)
        return summary
    }

    /// The journal (already locked) with the camera used; the earlier runs' speeds from the manifest (or, without
    /// one, from the substitutions whose used speed is unambiguous).
    package func record(
        _ matched: Void, camera: any CommandCamera, check: CameraCheck
    ) async throws -> (PreparedBracket, JournalLock?) {
        let plan = journal.plan
        let earlierManifest = await ShootManifest.load(from: journal.outputDirectory)
        let earlier = earlierManifest?.recordedSpeeds
        var planned = earlier?.planned ?? [:]
        if earlier == nil {
            for substitution in journal.substitutions
            where journal.substitutions.filter({ $0.used == substitution.used }).count == 1 {
                for position in plan.positions where plan.speed(at: position) == substitution.used {
                    planned[position] = substitution.planned
                }
            }
        }
        var current = journal
        // Reconnected elsewhere: the journal follows the camera actually used (so the next resume finds it).
        if followsCamera { current.camera.address = check.identity.address }
        let shoot = PreparedBracket(
            camera: camera, journal: current, store: store, start: resumePosition, restartingSet: restartingSet,
            planned: planned, actual: earlier?.actual ?? [:], overhead: BracketPlan.defaultOverheadPerFrame,
            probes: earlierManifest?.probes ?? [])
        return (shoot, nil)
    }
}
